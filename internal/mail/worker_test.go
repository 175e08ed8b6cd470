package mail

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/northbeam/site/internal/logtest"
	"github.com/northbeam/site/internal/mail/mailtest"
	"github.com/northbeam/site/internal/store"
	"github.com/northbeam/site/internal/store/storetest"
	"github.com/northbeam/site/internal/testwait"
)

func TestEnqueueBelongsToTransaction(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {

		errBoom := errors.New("boom")
		err := st.InTx(context.Background(), func(tx *store.Tx) error {
			if err := Enqueue(context.Background(), tx, validMessage()); err != nil {
				return err
			}
			return errBoom
		})
		if !errors.Is(err, errBoom) {
			t.Fatal(err)
		}
		if rows := outboxRows(t, st); len(rows) != 0 {
			t.Fatalf("rolled back transaction left %d outbox rows", len(rows))
		}

		bad := validMessage()
		bad.Subject = "x\r\nBcc: evil@attacker.test"
		err = st.InTx(context.Background(), func(tx *store.Tx) error { return Enqueue(context.Background(), tx, bad) })
		if !errors.Is(err, ErrInvalid) {
			t.Fatalf("Enqueue of a CRLF subject: %v, want ErrInvalid", err)
		}
	})
}

func TestWorkerDelivers(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {

		srv := mailtest.Start(t)
		logs := &logtest.Buffer{}
		w := NewWorker(st, smtpSender(t, srv), WorkerConfig{Logger: logs.Logger()})

		withFile := validMessage()
		withFile.Kind = "test.invite"
		withFile.Attachments = []Attachment{{Filename: "invite.ics", ContentType: "text/calendar", Data: []byte("BEGIN:VCALENDAR")}}
		enqueue(t, st, validMessage(), withFile)

		n, err := w.DrainOnce(context.Background())
		if err != nil || n != 2 {
			t.Fatalf("DrainOnce = %d, %v; want 2, nil", n, err)
		}
		got := srv.Received()
		if len(got) != 2 {
			t.Fatalf("server received %d, want 2", len(got))
		}
		if files := got[1].Attachments(); len(files) != 1 || string(files[0].Body) != "BEGIN:VCALENDAR" {
			t.Errorf("attachment = %+v", files)
		}
		for i, r := range outboxRows(t, st) {
			if r.state != "sent" || !r.sent || r.attempts != 1 {
				t.Errorf("row %d = %+v, want sent after 1 attempt", i, r)
			}
			if want := "<" + r.ref + "@northbeam.dev>"; got[i].Header.Get("Message-Id") != want {
				t.Errorf("Message-ID = %q, want %q", got[i].Header.Get("Message-Id"), want)
			}
		}
		if n, _ := w.DrainOnce(context.Background()); n != 0 || len(srv.Received()) != 2 {
			t.Errorf("second drain sent again")
		}
		assertNoPersonalData(t, logs.String())
	})
}

func TestWorkerRetriesUntilServerReturns(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {

		srv := mailtest.Start(t)
		clk := newClock()
		logs := &logtest.Buffer{}
		w := NewWorker(st, smtpSender(t, srv), WorkerConfig{
			Logger:    logs.Logger(),
			Now:       clk.Now,
			RetryBase: time.Minute,
			RetryMax:  10 * time.Minute,
		})
		srv.Stop()
		enqueue(t, st, validMessage(), validMessage())
		ctx := context.Background()

		for attempt := 1; attempt <= 3; attempt++ {
			n, err := w.DrainOnce(ctx)
			if err != nil || n != 0 {
				t.Fatalf("attempt %d: DrainOnce = %d, %v; want 0, nil", attempt, n, err)
			}
			for _, r := range outboxRows(t, st) {
				if r.state != "pending" || r.attempts != attempt || r.lastError == "" || r.sent {
					t.Fatalf("attempt %d: row = %+v", attempt, r)
				}
				// Backoff: base doubled per attempt with jitter in its upper half.
				delay := r.nextAttempt.Sub(clk.Now())
				full := time.Minute << (attempt - 1)
				if delay < full/2-time.Millisecond || delay > full+time.Millisecond {
					t.Errorf("attempt %d: next attempt in %v, want within [%v, %v]", attempt, delay, full/2, full)
				}
			}
			// Not due yet: nothing is tried before the backoff has passed.
			if _, err := w.DrainOnce(ctx); err != nil {
				t.Fatal(err)
			}
			if r := outboxRows(t, st)[0]; r.attempts != attempt {
				t.Fatalf("a row was retried before it was due: %+v", r)
			}
			clk.Advance(time.Hour)
		}

		srv.Restart()
		n, err := w.DrainOnce(ctx)
		if err != nil || n != 2 {
			t.Fatalf("after restart: DrainOnce = %d, %v; want 2, nil", n, err)
		}
		if got := len(srv.Received()); got != 2 {
			t.Fatalf("server received %d, want 2", got)
		}
		for _, r := range outboxRows(t, st) {
			if r.state != "sent" || r.attempts != 4 {
				t.Errorf("row = %+v, want sent on attempt 4", r)
			}
		}
		if !strings.Contains(logs.String(), "will retry") {
			t.Error("failures were not logged")
		}
		assertNoPersonalData(t, logs.String())
	})
}

func TestWorkerGivesUp(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {

		srv := mailtest.Start(t)
		clk := newClock()
		w := NewWorker(st, smtpSender(t, srv), WorkerConfig{Now: clk.Now, MaxAttempts: 2, Logger: (&logtest.Buffer{}).Logger()})
		srv.Stop()
		enqueue(t, st, validMessage())
		for range 3 {
			if _, err := w.DrainOnce(context.Background()); err != nil {
				t.Fatal(err)
			}
			clk.Advance(2 * time.Hour)
		}
		if r := outboxRows(t, st)[0]; r.state != "failed" || r.attempts != 2 {
			t.Fatalf("row = %+v, want failed after 2 attempts", r)
		}
	})
}

// A row that became invalid in the database (written by hand, or by an
// older version) is refused by the sender and never reaches the server.
func TestWorkerFailsInvalidRowAtOnce(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {

		srv := mailtest.Start(t)
		w := NewWorker(st, smtpSender(t, srv), WorkerConfig{Logger: (&logtest.Buffer{}).Logger()})
		enqueue(t, st, validMessage())
		if _, err := st.ExecContext(context.Background(), `UPDATE outbox SET subject = ?`, "Hi\r\nBcc: evil@attacker.test"); err != nil {
			t.Fatal(err)
		}
		if n, err := w.DrainOnce(context.Background()); n != 0 || err != nil {
			t.Fatalf("DrainOnce = %d, %v", n, err)
		}
		if r := outboxRows(t, st)[0]; r.state != "failed" || r.attempts != 1 {
			t.Fatalf("row = %+v, want failed at once", r)
		}
		if len(srv.Received()) != 0 {
			t.Fatal("an invalid message reached the server")
		}
	})
}

func TestLogSenderHoldsUntilSMTPIsConfigured(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {

		logs := &logtest.Buffer{}
		held := NewWorker(st, LogSender{Logger: logs.Logger()}, WorkerConfig{Logger: logs.Logger()})
		enqueue(t, st, validMessage(), validMessage())

		for range 2 {
			if n, err := held.DrainOnce(context.Background()); n != 0 || err != nil {
				t.Fatalf("DrainOnce = %d, %v", n, err)
			}
		}
		for _, r := range outboxRows(t, st) {
			if r.state != "held" || r.attempts != 0 || r.sent {
				t.Fatalf("row = %+v, want held without attempts", r)
			}
		}
		if got := strings.Count(logs.String(), "mail held in outbox"); got != 2 {
			t.Errorf("held messages logged %d times, want once each (2)", got)
		}
		if !strings.Contains(logs.String(), "to_domain=example.com") || !strings.Contains(logs.String(), "kind=test.hello") {
			t.Errorf("log lacks kind or domain:\n%s", logs)
		}
		assertNoPersonalData(t, logs.String())

		// The site restarts with SMTP configured: the held mail goes out.
		srv := mailtest.Start(t)
		w := NewWorker(st, smtpSender(t, srv), WorkerConfig{Logger: logs.Logger()})
		if n, err := w.DrainOnce(context.Background()); n != 2 || err != nil {
			t.Fatalf("DrainOnce with SMTP = %d, %v; want 2", n, err)
		}
		if len(srv.Received()) != 2 {
			t.Fatalf("server received %d, want 2", len(srv.Received()))
		}
	})
}

func TestRunWakes(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {

		srv := mailtest.Start(t)
		w := NewWorker(st, smtpSender(t, srv), WorkerConfig{PollInterval: time.Hour, Logger: (&logtest.Buffer{}).Logger()})
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error)
		go func() { done <- w.Run(ctx) }()

		enqueue(t, st, validMessage())
		w.Wake()
		srv.WaitFor(1)
		enqueue(t, st, validMessage())
		w.Wake()
		srv.WaitFor(2)

		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("Run = %v, want nil after cancel", err)
			}
		case <-time.After(time.Until(testwait.Deadline(t))):
			t.Fatal("Run did not stop after its context was cancelled")
		}
	})
}

// gate delays a real sender until released, to cancel in the middle of a
// send.
type gate struct {
	Sender
	entered chan struct{}
	release chan struct{}
	once    sync.Once
}

func (g *gate) Send(ctx context.Context, ref string, m Message) error {
	g.once.Do(func() { close(g.entered) })
	<-g.release
	return g.Sender.Send(ctx, ref, m)
}

func TestCancelFinishesMessageInProgress(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {

		srv := mailtest.Start(t)
		g := &gate{Sender: smtpSender(t, srv), entered: make(chan struct{}), release: make(chan struct{})}
		w := NewWorker(st, g, WorkerConfig{Logger: (&logtest.Buffer{}).Logger()})
		enqueue(t, st, validMessage(), validMessage())

		ctx, cancel := context.WithCancel(context.Background())
		type result struct {
			n   int
			err error
		}
		done := make(chan result)
		go func() {
			n, err := w.DrainOnce(ctx)
			done <- result{n, err}
		}()
		<-g.entered
		cancel()
		close(g.release)
		res := <-done
		if res.n != 1 || !errors.Is(res.err, context.Canceled) {
			t.Fatalf("DrainOnce = %d, %v; want 1, context.Canceled", res.n, res.err)
		}
		rows := outboxRows(t, st)
		if rows[0].state != "sent" || rows[1].state != "pending" || rows[1].attempts != 0 {
			t.Fatalf("rows = %+v; want the first sent and recorded, the second untouched", rows)
		}
		if len(srv.Received()) != 1 {
			t.Fatalf("server received %d, want 1", len(srv.Received()))
		}
	})
}

// A message claimed by a process that then died is sent again once its
// lease is over, and not before.
func TestLeaseExpiry(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {

		srv := mailtest.Start(t)
		clk := newClock()
		w := NewWorker(st, smtpSender(t, srv), WorkerConfig{Now: clk.Now, Lease: 10 * time.Minute, Logger: (&logtest.Buffer{}).Logger()})
		enqueue(t, st, validMessage())
		if _, ok, err := w.claimNext(context.Background(), clk.Now(), false); err != nil || !ok {
			t.Fatalf("claimNext = %v, %v", ok, err)
		}
		if n, _ := w.DrainOnce(context.Background()); n != 0 {
			t.Fatal("a leased message was sent")
		}
		clk.Advance(11 * time.Minute)
		if n, _ := w.DrainOnce(context.Background()); n != 1 {
			t.Fatal("the message was not sent after its lease")
		}
	})
}

func TestRetryDelay(t *testing.T) {
	w := NewWorker(nil, LogSender{}, WorkerConfig{RetryBase: 30 * time.Second, RetryMax: time.Hour})
	for attempts := 1; attempts <= 100; attempts++ {
		full := min(30*time.Second<<min(attempts-1, 20), time.Hour)
		for range 20 {
			d := w.retryDelay(attempts)
			if d < full/2 || d > full {
				t.Fatalf("retryDelay(%d) = %v, want within [%v, %v]", attempts, d, full/2, full)
			}
		}
	}
}

// assertNoPersonalData fails when a log holds a recipient address, a
// subject or a body of the test messages.
func assertNoPersonalData(t *testing.T, logs string) {
	t.Helper()
	m := validMessage()
	for _, secret := range []string{"visitor@", m.Subject, "Hello", "world", "hello@northbeam.dev"} {
		if strings.Contains(logs, secret) {
			t.Errorf("logs contain %q:\n%s", secret, logs)
		}
	}
}
