// Package mailtest runs a real SMTP server inside a test process and
// decodes the messages it receives, for tests of code that sends mail.
// It is imported by tests only.
package mailtest

import (
	"fmt"
	"io"
	"log"
	"net"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
	"github.com/northbeam/site/internal/testwait"
)

// Server is an SMTP server on a loopback port that records every message.
// It can be stopped and restarted on the same address to play a mail
// server that goes away and comes back.
type Server struct {
	t    testing.TB
	addr string
	opts options

	mu       sync.Mutex
	srv      *smtp.Server
	ln       net.Listener // closed by Stop even if Serve has not registered it yet
	received []Received
	arrived  chan struct{} // closed and replaced on every message
}

type options struct {
	user, pass string
	tls        *serverTLS
	smtputf8   bool
}

// Option configures a Server.
type Option func(*options)

// WithAuth makes the server require AUTH PLAIN with these credentials.
func WithAuth(user, pass string) Option {
	return func(o *options) { o.user, o.pass = user, pass }
}

// WithSMTPUTF8 makes the server offer SMTPUTF8 (RFC 6531), and so accept
// addresses that are not ASCII. Without it, the server refuses such an
// address in MAIL FROM or RCPT TO, as a strict server does.
func WithSMTPUTF8() Option {
	return func(o *options) { o.smtputf8 = true }
}

// Start runs a server on 127.0.0.1 with a free port until the test ends.
func Start(t testing.TB, opts ...Option) *Server {
	t.Helper()
	s := &Server{t: t, arrived: make(chan struct{})}
	for _, o := range opts {
		o(&s.opts)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("mailtest: listen: %v", err)
	}
	s.addr = ln.Addr().String()
	s.serve(ln)
	t.Cleanup(s.Stop)
	return s
}

// Addr is the server's host:port.
func (s *Server) Addr() string { return s.addr }

// URL is an SMTP_URL for the server: plain SMTP unless the server has TLS,
// with the credentials of WithAuth if any.
func (s *Server) URL() string {
	u := url.URL{Scheme: "smtp", Host: s.addr}
	if s.opts.user != "" {
		u.User = url.UserPassword(s.opts.user, s.opts.pass)
	}
	if s.opts.tls == nil {
		u.RawQuery = "tls=none"
	}
	return u.String()
}

func (s *Server) serve(ln net.Listener) {
	srv := smtp.NewServer(smtp.BackendFunc(func(*smtp.Conn) (smtp.Session, error) {
		return &session{server: s}, nil
	}))
	srv.Domain = "mailtest.localhost"
	srv.ReadTimeout = 10 * time.Second
	srv.WriteTimeout = 10 * time.Second
	srv.MaxMessageBytes = 32 << 20
	srv.AllowInsecureAuth = s.opts.tls == nil
	srv.EnableSMTPUTF8 = s.opts.smtputf8
	srv.ErrorLog = log.New(io.Discard, "", 0)
	if s.opts.tls != nil {
		srv.TLSConfig = s.opts.tls.config
	}
	s.mu.Lock()
	s.srv, s.ln = srv, ln
	s.mu.Unlock()
	// Serve returns when Stop closes the listener; that error is its end.
	go func() { _ = srv.Serve(ln) }()
}

// Stop closes the server and every connection; the address stays reserved
// for Restart only as long as nothing else takes it.
func (s *Server) Stop() {
	s.mu.Lock()
	srv, ln := s.srv, s.ln
	s.srv, s.ln = nil, nil
	s.mu.Unlock()
	if srv != nil {
		ln.Close()
		_ = srv.Close() // a test server torn down: nothing to report
	}
}

// Restart serves again on the same address after Stop.
func (s *Server) Restart() {
	s.t.Helper()
	var ln net.Listener
	var err error
	for range 50 { // the old socket may take a moment to release the port
		if ln, err = net.Listen("tcp", s.addr); err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil {
		s.t.Fatalf("mailtest: listen again on %s: %v", s.addr, err)
	}
	s.serve(ln)
}

// Received returns a copy of the messages received so far, in order.
func (s *Server) Received() []Received {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Received(nil), s.received...)
}

// WaitFor waits until n messages have arrived and returns them all; it
// fails the test when they have not by the test's deadline (testwait).
func (s *Server) WaitFor(n int) []Received {
	s.t.Helper()
	deadline := time.After(time.Until(testwait.Deadline(s.t)))
	start := time.Now()
	for {
		s.mu.Lock()
		got, arrived := len(s.received), s.arrived
		s.mu.Unlock()
		if got >= n {
			return s.Received()
		}
		select {
		case <-arrived:
		case <-deadline:
			s.t.Fatalf("mailtest: %d messages after %v, want %d", got, time.Since(start).Round(time.Millisecond), n)
			return nil
		}
	}
}

func (s *Server) add(r Received) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.received = append(s.received, r)
	close(s.arrived)
	s.arrived = make(chan struct{})
}

// session records one SMTP transaction.
type session struct {
	server *Server
	authed bool
	from   string
	utf8   bool
	to     []string
}

// asciiOnly refuses an address that is not ASCII when the client did not
// ask for SMTPUTF8 (or the server does not offer it).
func (se *session) asciiOnly(addr string) error {
	if se.utf8 {
		return nil
	}
	for i := 0; i < len(addr); i++ {
		if addr[i] >= 0x80 {
			return &smtp.SMTPError{Code: 553, EnhancedCode: smtp.EnhancedCode{5, 6, 7}, Message: "mailtest: a non-ASCII address without SMTPUTF8"}
		}
	}
	return nil
}

func (se *session) AuthMechanisms() []string {
	if se.server.opts.user == "" {
		return nil
	}
	return []string{sasl.Plain}
}

func (se *session) Auth(mech string) (sasl.Server, error) {
	if mech != sasl.Plain {
		return nil, smtp.ErrAuthUnknownMechanism
	}
	return sasl.NewPlainServer(func(_, user, pass string) error {
		if user != se.server.opts.user || pass != se.server.opts.pass {
			return smtp.ErrAuthFailed
		}
		se.authed = true
		return nil
	}), nil
}

func (se *session) Mail(from string, opts *smtp.MailOptions) error {
	if se.server.opts.user != "" && !se.authed {
		return smtp.ErrAuthRequired
	}
	se.utf8 = opts != nil && opts.UTF8
	if err := se.asciiOnly(from); err != nil {
		return err
	}
	se.from = from
	return nil
}

func (se *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	if err := se.asciiOnly(to); err != nil {
		return err
	}
	se.to = append(se.to, to)
	return nil
}

func (se *session) Data(r io.Reader) error {
	raw, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	msg, err := parse(raw)
	if err != nil {
		return &smtp.SMTPError{Code: 554, Message: fmt.Sprintf("mailtest: unparsable message: %v", err)}
	}
	msg.From, msg.To, msg.SMTPUTF8 = se.from, se.to, se.utf8
	se.server.add(msg)
	return nil
}

func (se *session) Reset() { se.from, se.to, se.utf8 = "", nil, false }

func (se *session) Logout() error { return nil }

var _ smtp.AuthSession = (*session)(nil)
