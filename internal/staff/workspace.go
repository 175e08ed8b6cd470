package staff

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/url"
	"text/template"
	"time"

	"github.com/go-webauthn/webauthn/protocol"
	"github.com/go-webauthn/webauthn/webauthn"

	"github.com/northbeam/site/internal/booking"
	"github.com/northbeam/site/internal/contact"
	"github.com/northbeam/site/internal/mail"
	"github.com/northbeam/site/internal/site"
	"github.com/northbeam/site/internal/store"
)

// Translator gives the workspace's strings (content/staff/locales):
// {{name}} placeholders are replaced from vars pairs. site.Locales
// implements it.
type Translator interface {
	T(lang, key string, vars ...string) string
}

// Config is what a Workspace needs besides the database.
type Config struct {
	// BaseURL is the site's public URL (BASE_URL): the links it mails and
	// prints, and the relying party of the passkeys (its host).
	BaseURL string
	// Name is the consultancy's name, which authenticators show beside a
	// passkey and mails sign with.
	Name string
	// Location is the consultancy's zone: the agenda's days and the date
	// ranges of exports are its own. Default UTC.
	Location *time.Location
	// RetentionMonths is how long messages, past bookings' personal fields
	// and sent mail are kept (RETENTION); default 12.
	RetentionMonths int
	// SpamRetention is how long messages flagged as spam are kept; default
	// 30 days.
	SpamRetention time.Duration
	// RetentionBatch is the most rows one transaction of the retention job
	// changes; default DefaultRetentionBatch.
	RetentionBatch int
	// RetentionBatchTime is how long one transaction of the retention job
	// (or of the search indexes' merge after it) should hold the database:
	// the size of its batches follows; default DefaultRetentionBatchTime.
	RetentionBatchTime time.Duration
	// Texts translates the workspace's strings (exports' columns).
	Texts Translator
	// Content holds the mail templates (mail/<lang>/staff-sign-in.txt).
	Content fs.FS
	// Contact composes the notification of a message found not to be spam:
	// the mail that spam never sent. Nil: "not spam" sends nothing.
	Contact *contact.Mailer
	// Bookings cancels bookings on a visitor's behalf. Nil: staff cannot.
	Bookings *booking.StaffCancellation
	// Calendars reads a member's own calendar feed as soon as it is added,
	// and lets one go as soon as it is removed (the calendar.Source of
	// the hosts' free time). Nil: at the calendars' next refresh.
	Calendars MemberCalendars
	// Now is the clock; default time.Now. Tests move it forward.
	Now func() time.Time
	// Queued, when set, is called after a commit that queued mail, e.g.
	// the mail worker's Wake.
	Queued func()
	// Logger receives the retention job's lines and the failures of queued
	// link requests; default slog.Default().
	Logger *slog.Logger
}

// language returns lang if the workspace speaks it (a language of
// content/site.json), else the default language's code.
func (w *Workspace) language(lang string) string {
	if l, ok := w.langs.Find(lang); ok {
		return l.Code
	}
	return w.langs.Default().Code
}

// Workspace is the staff workspace over one database.
type Workspace struct {
	store    *store.Store
	cfg      Config
	webauthn *webauthn.WebAuthn
	rpID     string
	langs    site.Languages                // the workspace's, those of content/site.json
	signIn   map[string]*template.Template // the sign-in link's mail, by language
	links    linkQueue                     // requests for a sign-in link, see QueueSignInLink
}

// signInTemplate is the mail carrying a sign-in link, in each language.
const signInTemplate = "mail/%s/staff-sign-in.txt"

// New returns the workspace of st. Its mail templates are rendered once,
// so that a broken one stops the start rather than a sign-in later.
func New(st *store.Store, cfg Config) (*Workspace, error) {
	u, err := url.Parse(cfg.BaseURL)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Hostname() == "" {
		return nil, fmt.Errorf("staff: base URL %q: want an absolute http(s) URL", cfg.BaseURL)
	}
	if cfg.Name == "" || cfg.Content == nil || cfg.Texts == nil {
		return nil, errors.New("staff: the name, the content and the texts are required")
	}
	if cfg.Location == nil {
		cfg.Location = time.UTC
	}
	if cfg.RetentionMonths <= 0 {
		cfg.RetentionMonths = DefaultRetentionMonths
	}
	if cfg.SpamRetention <= 0 {
		cfg.SpamRetention = DefaultSpamRetention
	}
	if cfg.RetentionBatch <= 0 {
		cfg.RetentionBatch = DefaultRetentionBatch
	}
	if cfg.RetentionBatchTime <= 0 {
		cfg.RetentionBatchTime = DefaultRetentionBatchTime
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	origin := u.Scheme + "://" + u.Host
	w := &Workspace{store: st, cfg: cfg, rpID: u.Hostname(), signIn: map[string]*template.Template{}}
	if net.ParseIP(u.Hostname()) != nil {
		// A relying party is a domain name: with BASE_URL at an IP address
		// (a test, a bare server) the workspace opens by mailed links only.
		cfg.Logger.Warn("staff workspace: passkeys need BASE_URL to name a domain, not an IP address; sign-in links still work")
	} else if w.webauthn, err = newRelyingParty(u.Hostname(), origin, cfg.Name); err != nil {
		return nil, err
	}
	w.cfg.BaseURL = origin + u.EscapedPath()
	for len(w.cfg.BaseURL) > 0 && w.cfg.BaseURL[len(w.cfg.BaseURL)-1] == '/' {
		w.cfg.BaseURL = w.cfg.BaseURL[:len(w.cfg.BaseURL)-1]
	}
	info, err := site.Load(cfg.Content, site.File)
	if err != nil {
		return nil, fmt.Errorf("staff: %w", err)
	}
	w.langs = info.Languages
	for _, lang := range w.langs.Codes() {
		t, err := mail.ParseTemplate(cfg.Content, fmt.Sprintf(signInTemplate, lang))
		if err != nil {
			return nil, err
		}
		w.signIn[lang] = t
		if _, err := w.signInMail("sample@example.com", lang, "sample-token"); err != nil {
			return nil, err
		}
	}
	return w, nil
}

// newRelyingParty is the WebAuthn relying party of the workspace at origin.
func newRelyingParty(rpID, origin, name string) (*webauthn.WebAuthn, error) {
	wa, err := webauthn.New(&webauthn.Config{
		RPID:          rpID,
		RPDisplayName: name,
		RPOrigins:     []string{origin},
		// A passkey is the only factor: the person must unlock it (a
		// fingerprint, a face, the device's PIN), not merely hold it.
		AuthenticatorSelection: protocol.AuthenticatorSelection{
			ResidentKey:      protocol.ResidentKeyRequirementRequired,
			UserVerification: protocol.VerificationRequired,
		},
		AttestationPreference: protocol.PreferNoAttestation,
		Timeouts: webauthn.TimeoutsConfig{
			Login:        webauthn.TimeoutConfig{Timeout: CeremonyLifetime, TimeoutUVD: CeremonyLifetime},
			Registration: webauthn.TimeoutConfig{Timeout: CeremonyLifetime, TimeoutUVD: CeremonyLifetime},
		},
	})
	if err != nil {
		return nil, fmt.Errorf("staff: passkeys: %w", err)
	}
	return wa, nil
}

// Now returns the workspace's current time.
func (w *Workspace) Now() time.Time { return w.cfg.Now() }

// Location returns the consultancy's zone.
func (w *Workspace) Location() *time.Location { return w.cfg.Location }

// RetentionMonths returns how many months personal data is kept.
func (w *Workspace) RetentionMonths() int { return w.cfg.RetentionMonths }

// Origin returns the origin of the workspace's pages (scheme and host of
// the base URL): the only one whose requests may change anything.
func (w *Workspace) Origin() string {
	u, _ := url.Parse(w.cfg.BaseURL)
	return u.Scheme + "://" + u.Host
}

func (w *Workspace) queued() {
	if w.cfg.Queued != nil {
		w.cfg.Queued()
	}
}

// ErrNoPasskeys is the answer of a passkey ceremony on a workspace whose
// BASE_URL is an IP address, which no passkey can belong to.
var ErrNoPasskeys = errors.New("staff: passkeys need BASE_URL to name a domain")

// ErrNotFound is the answer about a message, booking, mail or person that
// does not exist.
var ErrNotFound = errors.New("staff: not found")
