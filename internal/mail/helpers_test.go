package mail

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/northbeam/site/internal/mail/mailtest"
	"github.com/northbeam/site/internal/store"
)

func enqueue(t *testing.T, st *store.Store, msgs ...Message) {
	t.Helper()
	err := st.InTx(context.Background(), func(tx *store.Tx) error {
		for _, m := range msgs {
			if err := Enqueue(context.Background(), tx, m); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatalf("enqueue: %v", err)
	}
}

// outboxRow is what the tests read back from the outbox.
type outboxRow struct {
	ref, state, lastError string
	attempts              int
	nextAttempt           time.Time
	sent                  bool
}

func outboxRows(t *testing.T, st *store.Store) []outboxRow {
	t.Helper()
	rows, err := st.QueryContext(context.Background(), `SELECT ref, state, last_error, attempts, next_attempt_at, sent_at IS NOT NULL FROM outbox ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []outboxRow
	for rows.Next() {
		var r outboxRow
		var next int64
		if err := rows.Scan(&r.ref, &r.state, &r.lastError, &r.attempts, &next, &r.sent); err != nil {
			t.Fatal(err)
		}
		r.nextAttempt = store.FromMillis(next)
		out = append(out, r)
	}
	return out
}

func smtpSender(t *testing.T, srv *mailtest.Server) *SMTPSender {
	t.Helper()
	s, err := NewSMTPSender(SMTPConfig{
		URL:       srv.URL(),
		From:      "Northbeam <hello@northbeam.dev>",
		Timeout:   5 * time.Second,
		TLSConfig: srv.ClientTLS(),
	})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// clock is a settable time source for the worker.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

// newClock starts a second ahead of the wall clock, which Enqueue uses, so
// that mail enqueued after it was made is already due.
func newClock() *clock { return &clock{now: time.Now().Add(time.Second)} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}
