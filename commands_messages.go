package main

import (
	"context"
	"flag"
	"io"
	"time"

	"github.com/northbeam/site/internal/config"
	"github.com/northbeam/site/internal/contact"
)

// messagesCommand prints the latest contact messages for staff, from the
// database the configuration names (DATABASE_URL, else DATA_DIR).
func messagesCommand(args []string, getenv func(string) string, out io.Writer) error {
	fs := flag.NewFlagSet("messages", flag.ContinueOnError)
	limit := fs.Int("n", 20, "how many messages, newest first")
	cfg, err := config.Parse(fs, args, getenv, "DATA_DIR", "DATABASE_URL")
	if err != nil {
		return err
	}
	ctx := context.Background()
	st, err := openStore(ctx, cfg, 10*time.Second)
	if err != nil {
		return err
	}
	defer st.Close()
	records, err := contact.List(ctx, st, *limit)
	if err != nil {
		return err
	}
	return contact.WriteText(out, records)
}
