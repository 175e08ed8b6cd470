package staff

import (
	"context"
	"errors"
	"sync"
	"time"
)

// ErrBusy refuses a request for a sign-in link while too many wait to be
// handled; it is answered alike whoever the address is.
var ErrBusy = errors.New("staff: too many sign-in link requests waiting")

// linkQueueSize bounds the requests for a link waiting for the worker; the
// limits per client and per address keep it far from full.
const linkQueueSize = 256

// linkTimeout bounds the work of one queued request.
const linkTimeout = 30 * time.Second

// linkQueue holds the requests for a sign-in link that the workspace's
// worker has not handled yet: the worker looks the address up, and for a
// member writes the link and queues its mail. Requests answer once queued,
// so their time says nothing of who is a member (a member's request used
// to write a token and a mail before answering, and took longer).
type linkQueue struct {
	once     sync.Once
	requests chan string
	mu       sync.Mutex
	idle     *sync.Cond // signalled when pending drops to 0
	pending  int        // queued and not yet handled
}

func (q *linkQueue) start(work func(email string)) {
	q.once.Do(func() {
		q.requests = make(chan string, linkQueueSize)
		q.idle = sync.NewCond(&q.mu)
		go func() {
			for email := range q.requests {
				work(email)
				q.mu.Lock()
				q.pending--
				if q.pending == 0 {
					q.idle.Broadcast()
				}
				q.mu.Unlock()
			}
		}()
	})
}

// QueueSignInLink checks email and queues the work of
// [Workspace.RequestSignInLink] for it: it returns as soon as the request
// is queued, in the same time whether or not email is a member's. It
// returns ErrInvalidEmail for an address that is not one, and ErrBusy
// when the queue is full. A failure of the queued work is logged (without
// the address); a request still queued when the process dies is lost, and
// the person asks again.
func (w *Workspace) QueueSignInLink(email string) error {
	email, ok := NormalizeEmail(email)
	if !ok {
		return ErrInvalidEmail
	}
	q := &w.links
	q.start(w.sendLink)
	q.mu.Lock()
	defer q.mu.Unlock()
	select {
	case q.requests <- email:
		q.pending++
		return nil
	default:
		return ErrBusy
	}
}

// sendLink is the queued work of one request.
func (w *Workspace) sendLink(email string) {
	ctx, cancel := context.WithTimeout(context.Background(), linkTimeout)
	defer cancel()
	if err := w.RequestSignInLink(ctx, email); err != nil {
		w.cfg.Logger.ErrorContext(ctx, "a requested sign-in link was not sent", "error", err)
	}
}

// SettleSignInLinks waits until every queued request for a link has been
// handled: at a graceful stop, so that none is dropped, and in tests.
func (w *Workspace) SettleSignInLinks() {
	q := &w.links
	q.start(w.sendLink)
	q.mu.Lock()
	defer q.mu.Unlock()
	for q.pending > 0 {
		q.idle.Wait()
	}
}
