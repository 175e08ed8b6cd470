package mail

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"mime"
	"net"
	"net/mail"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	gomail "github.com/wneessen/go-mail"
	"golang.org/x/net/idna"
)

// SMTPConfig configures an [SMTPSender].
type SMTPConfig struct {
	// URL is smtp://user:pass@host:port (STARTTLS, port 587 by default) or
	// smtps://user:pass@host:port (TLS from the first byte, port 465 by
	// default). User and password are optional and URL-escaped.
	//
	// With smtp://, STARTTLS is required when credentials are given and
	// used when offered otherwise; the query parameter tls=mandatory,
	// tls=opportunistic or tls=none overrides that (none is for a relay on
	// a trusted network, or a test server).
	URL string
	// From is the sender, "Northbeam <hello@northbeam.dev>" or a bare
	// address (MAIL_FROM).
	From string
	// HELO is the name given to the server; empty means the host name.
	HELO string
	// Timeout bounds connecting and each SMTP command; default 30 s.
	Timeout time.Duration
	// TLSConfig, when set, replaces the default (system roots, the URL's
	// host as server name), e.g. to trust a private CA.
	TLSConfig *tls.Config
}

// SMTPSender delivers messages to an SMTP server, one connection per
// message. It is safe for concurrent use.
type SMTPSender struct {
	mu     sync.Mutex // go-mail's Client keeps per-connection state
	client *gomail.Client
	from   *mail.Address
	// idDomain is the right-hand side of Message-IDs: the sender's domain.
	idDomain string
	host     string
}

// NewSMTPSender checks cfg and prepares a sender; it does not connect.
func NewSMTPSender(cfg SMTPConfig) (*SMTPSender, error) {
	from, err := mail.ParseAddress(cfg.From)
	if err != nil || strings.ContainsAny(cfg.From, "\r\n") {
		return nil, fmt.Errorf("mail: MAIL_FROM %q is not one address", cfg.From)
	}
	at := strings.LastIndexByte(from.Address, '@')
	if at <= 0 || at == len(from.Address)-1 {
		return nil, fmt.Errorf("mail: MAIL_FROM %q has no domain", cfg.From)
	}
	u, err := url.Parse(cfg.URL)
	if err != nil {
		// url's error repeats the URL, password included.
		return nil, errors.New("mail: SMTP_URL is not a URL")
	}
	host := u.Hostname()
	if host == "" {
		return nil, fmt.Errorf("mail: SMTP_URL %s has no host", u.Redacted())
	}
	timeout := cfg.Timeout
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	opts := []gomail.Option{gomail.WithTimeout(timeout)}

	var port int
	switch u.Scheme {
	case "smtp":
		port = 587
		policy := gomail.TLSOpportunistic
		if u.User != nil {
			policy = gomail.TLSMandatory // never send credentials in the clear
		}
		switch v := u.Query().Get("tls"); v {
		case "":
		case "mandatory":
			policy = gomail.TLSMandatory
		case "opportunistic":
			policy = gomail.TLSOpportunistic
		case "none":
			policy = gomail.NoTLS
		default:
			return nil, fmt.Errorf("mail: SMTP_URL %s: tls=%q, want mandatory, opportunistic or none", u.Redacted(), v)
		}
		opts = append(opts, gomail.WithTLSPolicy(policy))
	case "smtps":
		port = 465
		opts = append(opts, gomail.WithSSL())
	default:
		return nil, fmt.Errorf("mail: SMTP_URL %s: scheme %q, want smtp or smtps", u.Redacted(), u.Scheme)
	}
	for k := range u.Query() {
		if k != "tls" {
			return nil, fmt.Errorf("mail: SMTP_URL %s: unknown parameter %q", u.Redacted(), k)
		}
	}
	if p := u.Port(); p != "" {
		if port, err = strconv.Atoi(p); err != nil || port < 1 || port > 65535 {
			return nil, fmt.Errorf("mail: SMTP_URL %s: bad port", u.Redacted())
		}
	}
	opts = append(opts, gomail.WithPort(port))

	if u.User != nil {
		pass, _ := u.User.Password()
		opts = append(opts,
			// The strongest mechanism both sides offer; go-mail never picks
			// PLAIN or LOGIN on a connection without TLS.
			gomail.WithSMTPAuth(gomail.SMTPAuthAutoDiscover),
			gomail.WithUsername(u.User.Username()),
			gomail.WithPassword(pass),
		)
	}
	tlsConfig := &tls.Config{ServerName: host, MinVersion: tls.VersionTLS12}
	if cfg.TLSConfig != nil {
		tlsConfig = cfg.TLSConfig.Clone()
		if tlsConfig.ServerName == "" {
			tlsConfig.ServerName = host
		}
	}
	opts = append(opts, gomail.WithTLSConfig(tlsConfig))
	if cfg.HELO != "" {
		opts = append(opts, gomail.WithHELO(cfg.HELO))
	}

	client, err := gomail.NewClient(host, opts...)
	if err != nil {
		return nil, fmt.Errorf("mail: SMTP client for %s: %w", net.JoinHostPort(host, strconv.Itoa(port)), err)
	}
	return &SMTPSender{
		client:   client,
		from:     from,
		idDomain: from.Address[at+1:],
		host:     host,
	}, nil
}

// ErrNeedsSMTPUTF8 is wrapped by the error of a message to an address
// whose mailbox name (before the @) is not ASCII, when the server does not
// offer SMTPUTF8 (RFC 6531): such an address can only travel in UTF-8,
// and sent raw to a server that did not offer it, the message would be
// malformed. The message is given up (it wraps [ErrInvalid]) and stays in
// the outbox as failed, with this reason (docs/ARCHITECTURE.md, Data).
var ErrNeedsSMTPUTF8 = fmt.Errorf("%w: %s", ErrInvalid, ReasonNeedsSMTPUTF8)

// ReasonNeedsSMTPUTF8 begins the error an outbox row keeps when
// ErrNeedsSMTPUTF8 gave it up, which the workspace recognises.
const ReasonNeedsSMTPUTF8 = "undeliverable: the address has non-ASCII characters before the @ and the mail server does not offer SMTPUTF8"

// Send builds the MIME message and delivers it. An invalid message gives an
// error wrapping [ErrInvalid]; anything else is worth retrying. Domains
// travel as A-labels (xn--…); a mailbox name that is not ASCII needs the
// server's SMTPUTF8 ([ErrNeedsSMTPUTF8]).
func (s *SMTPSender) Send(ctx context.Context, ref string, m Message) error {
	msg, utf8Needed, err := s.build(ref, m, true)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	client, err := s.client.DialToSMTPClientWithContext(ctx)
	if err != nil {
		return fmt.Errorf("mail: send via %s: dial: %w", s.host, err)
	}
	defer func() { _ = s.client.CloseWithSMTPClient(client) }() // sent or not, the answer is known
	if offered, _ := client.Extension("SMTPUTF8"); !offered && utf8Needed != "" {
		if utf8Needed == "to" {
			return ErrNeedsSMTPUTF8
		}
		// Only the Reply-To needs UTF-8 (the consultancy's notice of a
		// visitor whose address does): the notice goes without it; its
		// text names the address.
		if msg, _, err = s.build(ref, m, false); err != nil {
			return err
		}
	}
	if err := s.client.SendWithSMTPClient(client, msg); err != nil {
		return fmt.Errorf("mail: send via %s: %w", s.host, err)
	}
	return nil
}

// envelopeAddress is addr ("Name <local@domain>" or a bare address) with
// its domain as an A-label, and whether its mailbox name is not ASCII.
func envelopeAddress(addr string) (string, bool, error) {
	a, err := mail.ParseAddress(addr)
	if err != nil {
		return "", false, err
	}
	at := strings.LastIndexByte(a.Address, '@')
	if at < 0 {
		return "", false, errors.New("no domain")
	}
	domain, err := idna.Lookup.ToASCII(a.Address[at+1:])
	if err != nil {
		return "", false, fmt.Errorf("domain: %w", err)
	}
	local := a.Address[:at]
	a.Address = local + "@" + domain
	return a.String(), !isASCII(local), nil
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// build turns m into a go-mail message. go-mail encodes header values
// (RFC 2047) and validates addresses; Validate has already refused any
// control character, so no value can start a header of its own. The
// addresses' domains are A-labels; utf8Needed names the address whose
// mailbox name is not ASCII ("to", else "reply-to", else ""). Without
// withUTF8 such a Reply-To is left out.
func (s *SMTPSender) build(ref string, m Message, withUTF8 bool) (msg *gomail.Msg, utf8Needed string, err error) {
	if err := m.Validate(); err != nil {
		return nil, "", err
	}
	if err := headerValue("ref", ref, true); err != nil || strings.ContainsAny(ref, "<>@ ") {
		return nil, "", fmt.Errorf("%w: outbox ref %q", ErrInvalid, ref)
	}
	to, toUTF8, err := envelopeAddress(m.To)
	if err != nil {
		return nil, "", fmt.Errorf("%w: to: %v", ErrInvalid, err)
	}
	msg = gomail.NewMsg(gomail.WithNoDefaultUserAgent())
	msg.FromMailAddress(s.from)
	if err := msg.To(to); err != nil {
		return nil, "", fmt.Errorf("%w: to: %v", ErrInvalid, err)
	}
	if toUTF8 {
		utf8Needed = "to"
	}
	if m.ReplyTo != "" {
		replyTo, replyUTF8, err := envelopeAddress(m.ReplyTo)
		if err != nil {
			return nil, "", fmt.Errorf("%w: reply-to: %v", ErrInvalid, err)
		}
		if replyUTF8 && utf8Needed == "" {
			utf8Needed = "reply-to"
		}
		if withUTF8 || !replyUTF8 {
			if err := msg.ReplyTo(replyTo); err != nil {
				return nil, "", fmt.Errorf("%w: reply-to: %v", ErrInvalid, err)
			}
		}
	}
	msg.Subject(m.Subject)
	msg.SetMessageIDWithValue(ref + "@" + s.idDomain)
	msg.SetDate()
	if m.Lang != "" {
		msg.SetGenHeader(gomail.HeaderContentLang, m.Lang)
	}
	// RFC 3834: out-of-office responders must not answer automatic mail.
	msg.SetGenHeader(gomail.Header("Auto-Submitted"), "auto-generated")
	msg.SetBodyString(gomail.TypeTextPlain, m.Text)
	if m.HTML != "" {
		msg.AddAlternativeString(gomail.TypeTextHTML, m.HTML)
	}
	// An invitation (iMIP, RFC 6047): a calendar attachment with a method
	// is also the body's last alternative, as calendar programs send it,
	// so that mail programs show it as an invitation. It stays attached
	// too, for the programs that only look there.
	for _, a := range m.Attachments {
		if mediaType, params, err := mime.ParseMediaType(a.ContentType); err == nil && mediaType == "text/calendar" && params["method"] != "" {
			msg.AddAlternativeString(gomail.ContentType("text/calendar; method="+params["method"]), string(a.Data))
		}
	}
	for _, a := range m.Attachments {
		if err := msg.AttachReader(a.Filename, bytes.NewReader(a.Data),
			gomail.WithFileContentType(gomail.ContentType(a.ContentType))); err != nil {
			return nil, "", fmt.Errorf("%w: attachment %q: %v", ErrInvalid, a.Filename, err)
		}
	}
	return msg, utf8Needed, nil
}
