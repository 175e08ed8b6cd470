package contact

import (
	"context"
	"fmt"
	"io"
	"strings"
	"unicode"

	"github.com/northbeam/site/internal/store"
)

func scanRecord(row store.Scanner) (Record, error) {
	var r Record
	var created int64
	if err := row.Scan(&r.ID, &r.Ref, &created, &r.Name, &r.Email, &r.Message,
		&r.Service, &r.Lang, &r.Spam, &r.SpamReason); err != nil {
		return Record{}, err
	}
	r.CreatedAt = store.FromMillis(created)
	return r, nil
}

// List returns the most recent messages, newest first, spam included
// (flagged); limit <= 0 means 50.
func List(ctx context.Context, db store.Querier, limit int) ([]Record, error) {
	if limit <= 0 {
		limit = 50
	}
	out, err := store.QueryAll(ctx, db, scanRecord, `
SELECT id, ref, created_at, name, email, message, service, lang, spam, spam_reason
FROM messages ORDER BY created_at DESC, id DESC LIMIT ?`, limit)
	if err != nil {
		return nil, fmt.Errorf("contact: list messages: %w", err)
	}
	return out, nil
}

// WriteText prints records for a terminal, in the order given: a header
// line per message, then its text indented. Control characters are shown
// as "?" so that no stored text can drive the terminal.
func WriteText(w io.Writer, records []Record) error {
	for _, r := range records {
		service := r.Service
		if service == "" {
			service = "-"
		}
		flag := ""
		if r.Spam {
			flag = "  SPAM (" + r.SpamReason + ")"
		}
		_, err := fmt.Fprintf(w, "%s  %s <%s>  service=%s  lang=%s  ref=%s%s\n",
			r.CreatedAt.UTC().Format("2006-01-02 15:04 UTC"), terminalSafe(r.Name, false), terminalSafe(r.Email, false),
			terminalSafe(service, false), terminalSafe(r.Lang, false), r.Ref, flag)
		if err != nil {
			return err
		}
		for line := range strings.SplitSeq(terminalSafe(r.Message, true), "\n") {
			if _, err := fmt.Fprintf(w, "    %s\n", line); err != nil {
				return err
			}
		}
		if _, err := fmt.Fprintln(w); err != nil {
			return err
		}
	}
	return nil
}

func terminalSafe(s string, multiline bool) string {
	return strings.Map(func(r rune) rune {
		if r == '\n' && multiline || r == '\t' {
			return r
		}
		if unicode.IsControl(r) {
			return '?'
		}
		return r
	}, s)
}
