package contact

import (
	"context"
	"fmt"
	"io/fs"
	"time"

	"github.com/google/uuid"

	"github.com/northbeam/site/internal/mail"
	"github.com/northbeam/site/internal/mailaddr"
	"github.com/northbeam/site/internal/store"
)

// Record is a stored contact message.
type Record struct {
	ID         int64
	Ref        string // random UUID: the reference shown to staff and in mail
	CreatedAt  time.Time
	Name       string
	Email      string
	Message    string
	Service    string
	Lang       string
	Spam       bool
	SpamReason string // SpamHoneypot, SpamTooFast, or ""
}

// SpamRetention is how long a message flagged as spam (by the form's
// filter or by a member) is kept after it arrived, whatever RETENTION
// says: the retention job (internal/staff) deletes it then, or earlier
// when RETENTION's months are shorter, and the privacy policy states it
// ({{spamRetention}}).
const SpamRetention = 30 * 24 * time.Hour

// Save inserts r and enqueues mails in one transaction: either the message
// and all its mail are committed, or nothing is. A record marked as spam is
// stored without any mail. Each mail is tied to the message by its
// reference. It returns r with its ID set.
func Save(ctx context.Context, st *store.Store, r Record, mails []mail.Message) (Record, error) {
	if r.Spam {
		mails = nil
	}
	err := st.InTx(ctx, func(tx *store.Tx) error {
		err := tx.QueryRowContext(ctx, `
INSERT INTO messages (ref, created_at, name, email, message, service, lang, spam, spam_reason, email_key)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
RETURNING id`,
			r.Ref, store.Millis(r.CreatedAt), r.Name, r.Email, r.Message, r.Service, r.Lang, r.Spam, r.SpamReason, mailaddr.Key(r.Email),
		).Scan(&r.ID)
		if err != nil {
			return fmt.Errorf("contact: insert message: %w", err)
		}
		for _, m := range mails {
			m.MessageRef = r.Ref
			if err := mail.Enqueue(ctx, tx, m); err != nil {
				return fmt.Errorf("contact: queue %s: %w", m.Kind, err)
			}
		}
		return nil
	})
	return r, err
}

// Config is what a Service needs besides the database and the templates.
type Config struct {
	// Inbox receives notifications (MAIL_TO).
	Inbox string
	// Brand fills the templates.
	Brand Brand
	// MinFillTime is the least time a person takes to fill the form;
	// default DefaultMinFillTime.
	MinFillTime time.Duration
	// Now is the clock; default time.Now.
	Now func() time.Time
	// Queued, when set, is called after a commit that queued mail, e.g.
	// the mail worker's Wake.
	Queued func()
}

// Service takes contact submissions.
type Service struct {
	store  *store.Store
	mailer *Mailer
	cfg    Config
}

// NewService returns a Service storing into st and writing mail from the
// templates under mail/ in content (the content directory).
func NewService(st *store.Store, content fs.FS, cfg Config) (*Service, error) {
	if cfg.MinFillTime <= 0 {
		cfg.MinFillTime = DefaultMinFillTime
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	mailer, err := NewMailer(content, cfg.Brand, cfg.Inbox)
	if err != nil {
		return nil, err
	}
	return &Service{store: st, mailer: mailer, cfg: cfg}, nil
}

// Receipt tells the caller what became of a submission. A spam submission
// must be answered exactly like a real one; Spam is for logs and tests.
type Receipt struct {
	Ref  string
	Spam bool
}

// Submit validates sub, and stores it with its mails queued (or, when it
// looks automated, stores it flagged as spam without mail). An invalid
// submission returns [FieldErrors] and stores nothing. When Submit returns
// nil the message is committed.
func (s *Service) Submit(ctx context.Context, sub Submission) (Receipt, error) {
	if errs := sub.Validate(); errs != nil {
		return Receipt{}, errs
	}
	now := s.cfg.Now()
	reason := sub.SpamReason(now, s.cfg.MinFillTime)
	sub = sub.Normalized()
	r := Record{
		Ref:        uuid.NewString(),
		CreatedAt:  now.UTC(),
		Name:       sub.Name,
		Email:      sub.Email,
		Message:    sub.Message,
		Service:    sub.Service,
		Lang:       s.mailer.language(sub.Lang),
		Spam:       reason != "",
		SpamReason: reason,
	}
	var mails []mail.Message
	if !r.Spam {
		var err error
		if mails, err = s.mailer.Compose(r); err != nil {
			return Receipt{}, err
		}
	}
	if _, err := Save(ctx, s.store, r, mails); err != nil {
		return Receipt{}, err
	}
	if len(mails) > 0 && s.cfg.Queued != nil {
		s.cfg.Queued()
	}
	return Receipt{Ref: r.Ref, Spam: r.Spam}, nil
}
