// Command northbeam-site serves Northbeam's website: React pages rendered
// by Go in four languages, the contact and booking APIs, and the blog.
//
//	go run .                 serve on :8080, building the bundles in memory
//	go run . -dev            also rebuild and re-render when frontend/ or content/ change
//	go run . build -out DIR  write the bundles for a production binary
//	go run . messages        print the latest contact messages
//	go run . migrate-db      copy the SQLite database into PostgreSQL
//	go run . backup FILE     a verified copy of the SQLite database
//	go run . staff ...       who may sign in to the staff workspace
//
// Every setting comes from the environment or a flag (internal/config).
package main

import (
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/northbeam/site/internal/accesslog"

	_ "time/tzdata" // the binary runs on hosts without zone files
)

// program is the binary's name, as deploy/ installs it: its errors and
// usage lines say it.
const program = "northbeam-site"

func main() {
	// The access log's lines are written in batches, off the request path;
	// the other lines at once, after them (internal/accesslog).
	logs := accesslog.New(os.Stderr, 100*time.Millisecond)
	log := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelInfo}))
	err := run(os.Args[1:], log, logs)
	if cerr := logs.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("log: %w", cerr)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, program+":", err)
		os.Exit(1)
	}
}

// run runs the command args name, or without one serves the site.
func run(args []string, log *slog.Logger, logs *accesslog.Writer) error {
	if len(args) > 0 {
		switch args[0] {
		case "build":
			return buildCommand(args[1:], os.Getenv, os.Stderr)
		case "messages":
			return messagesCommand(args[1:], os.Getenv, os.Stdout)
		case "migrate-db":
			return migrateDBCommand(args[1:], os.Getenv, os.Stdout)
		case "backup":
			return backupCommand(args[1:], os.Getenv, os.Stdout)
		case "staff":
			return staffCommand(args[1:], os.Getenv, os.Stdout)
		}
	}
	return serveCommand(args, os.Getenv, log, logs)
}
