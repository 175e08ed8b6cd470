package mail

import (
	"context"
	"errors"
	"log/slog"
)

// Sender delivers one message. ref identifies its outbox row and stays the
// same on every retry; an SMTP sender builds the Message-ID from it.
type Sender interface {
	Send(ctx context.Context, ref string, m Message) error
}

// ErrHeld is returned by a Sender that keeps messages in the outbox instead
// of delivering them. The worker marks such a message held, without
// counting an attempt.
var ErrHeld = errors.New("mail: held in outbox, no SMTP server configured")

// holder is implemented by senders that hold mail rather than deliver it;
// the worker then leaves already held rows alone instead of logging them
// again on every drain.
type holder interface{ holdsMail() }

// LogSender is the Sender used when SMTP_URL is empty. It logs that each
// message waits (its kind, outbox reference, language and recipient domain;
// never an address, a name or the content) and returns [ErrHeld], so the
// message stays in the outbox. Once the site runs with SMTP configured, the
// worker sends every held message.
type LogSender struct {
	Logger *slog.Logger // nil means slog.Default()
}

// Send logs m and holds it.
func (s LogSender) Send(ctx context.Context, ref string, m Message) error {
	logger := s.Logger
	if logger == nil {
		logger = slog.Default()
	}
	logger.InfoContext(ctx, "mail held in outbox: SMTP not configured, it is sent once SMTP_URL is set",
		"kind", m.Kind, "outbox_ref", ref, "lang", m.Lang, "to_domain", recipientDomain(m.To))
	return ErrHeld
}

func (LogSender) holdsMail() {}

// NewSender returns an [SMTPSender] for cfg, or a [LogSender] writing to
// logger when cfg.URL is empty.
func NewSender(cfg SMTPConfig, logger *slog.Logger) (Sender, error) {
	if cfg.URL == "" {
		return LogSender{Logger: logger}, nil
	}
	return NewSMTPSender(cfg)
}
