package contact

import (
	"maps"
	"strings"
	"testing"
	"time"
)

func validSubmission() Submission {
	return Submission{
		Name:    "Ada Lovelace",
		Email:   "ada@example.com",
		Message: "We would like to modernise our billing platform.",
		Service: ServicePlatformEngineering,
		Lang:    "en",
	}
}

// email254 is an address of exactly 254 characters with valid parts.
func email254() string {
	local := strings.Repeat("l", 64)
	domain := strings.Repeat("a", 63) + "." + strings.Repeat("b", 63) + "." + strings.Repeat("c", 57) + ".com"
	return local + "@" + domain
}

func TestValidate(t *testing.T) {
	tests := []struct {
		name   string
		change func(*Submission)
		want   FieldErrors // nil: valid
	}{
		{"valid", func(s *Submission) {}, nil},

		{"name empty", func(s *Submission) { s.Name = "" }, FieldErrors{FieldName: KeyName}},
		{"name only spaces", func(s *Submission) { s.Name = " \t\u00a0 " }, FieldErrors{FieldName: KeyName}},
		{"name 1 rune", func(s *Submission) { s.Name = "A" }, nil},
		{"name 100 runes", func(s *Submission) { s.Name = strings.Repeat("é", 100) }, nil},
		{"name 100 runes with outer spaces", func(s *Submission) { s.Name = "  " + strings.Repeat("é", 100) + "  " }, nil},
		{"name 101 runes", func(s *Submission) { s.Name = strings.Repeat("é", 101) }, FieldErrors{FieldName: KeyName}},
		{"name in Arabic", func(s *Submission) { s.Name = "ليلى حداد" }, nil},
		{"name with CRLF", func(s *Submission) { s.Name = "Eve\r\nBcc: evil@attacker.test" }, FieldErrors{FieldName: KeyName}},
		{"name with LF", func(s *Submission) { s.Name = "Eve\nSmith" }, FieldErrors{FieldName: KeyName}},
		{"name with tab", func(s *Submission) { s.Name = "Eve\tSmith" }, FieldErrors{FieldName: KeyName}},
		{"name invalid UTF-8", func(s *Submission) { s.Name = "Eve\xff" }, FieldErrors{FieldName: KeyName}},
		{"name with a line separator", func(s *Submission) { s.Name = "Eve\u2028Bcc: evil@attacker.test" }, FieldErrors{FieldName: KeyName}},
		{"name with a paragraph separator", func(s *Submission) { s.Name = "Eve\u2029Smith" }, FieldErrors{FieldName: KeyName}},
		{"name of format characters only", func(s *Submission) { s.Name = "\u202e\u200b\u2066" }, FieldErrors{FieldName: KeyName}},
		{"name with a right-to-left override", func(s *Submission) { s.Name = "Eve\u202egnp.exe" }, nil},
		{"name in Persian with a ZWNJ", func(s *Submission) { s.Name = "می\u200cنا" }, nil},

		{"email 254", func(s *Submission) { s.Email = email254() }, nil},
		{"email 255", func(s *Submission) { s.Email = "l" + email254() }, FieldErrors{FieldEmail: KeyEmail}},
		{"email with outer spaces", func(s *Submission) { s.Email = "  ada@example.com " }, nil},
		{"email subdomain", func(s *Submission) { s.Email = "ada.lovelace+site@mail.example.co.uk" }, nil},
		{"email internationalized", func(s *Submission) { s.Email = "josé@exämple.de" }, nil},
		{"email empty", func(s *Submission) { s.Email = "" }, FieldErrors{FieldEmail: KeyEmail}},
		{"email no at", func(s *Submission) { s.Email = "ada.example.com" }, FieldErrors{FieldEmail: KeyEmail}},
		{"email no dot in domain", func(s *Submission) { s.Email = "ada@localhost" }, FieldErrors{FieldEmail: KeyEmail}},
		{"email display name", func(s *Submission) { s.Email = "Ada <ada@example.com>" }, FieldErrors{FieldEmail: KeyEmail}},
		{"email angle brackets", func(s *Submission) { s.Email = "<ada@example.com>" }, FieldErrors{FieldEmail: KeyEmail}},
		{"email comment", func(s *Submission) { s.Email = "ada@example.com (Ada)" }, FieldErrors{FieldEmail: KeyEmail}},
		{"email two addresses", func(s *Submission) { s.Email = "ada@example.com, eve@example.com" }, FieldErrors{FieldEmail: KeyEmail}},
		{"email quoted local part", func(s *Submission) { s.Email = `"ada lovelace"@example.com` }, FieldErrors{FieldEmail: KeyEmail}},
		{"email space", func(s *Submission) { s.Email = "ada lovelace@example.com" }, FieldErrors{FieldEmail: KeyEmail}},
		{"email double dot", func(s *Submission) { s.Email = "ada@example..com" }, FieldErrors{FieldEmail: KeyEmail}},
		{"email leading dot domain", func(s *Submission) { s.Email = "ada@.example.com" }, FieldErrors{FieldEmail: KeyEmail}},
		{"email trailing dot domain", func(s *Submission) { s.Email = "ada@example.com." }, FieldErrors{FieldEmail: KeyEmail}},
		{"email hyphen label", func(s *Submission) { s.Email = "ada@-example.com" }, FieldErrors{FieldEmail: KeyEmail}},
		{"email underscore domain", func(s *Submission) { s.Email = "ada@exa_mple.com" }, FieldErrors{FieldEmail: KeyEmail}},
		{"email IP literal", func(s *Submission) { s.Email = "ada@[192.0.2.1]" }, FieldErrors{FieldEmail: KeyEmail}},
		{"email local part 65", func(s *Submission) { s.Email = strings.Repeat("l", 65) + "@example.com" }, FieldErrors{FieldEmail: KeyEmail}},
		{"email with CRLF", func(s *Submission) { s.Email = "ada@example.com\r\nBcc: evil@attacker.test" }, FieldErrors{FieldEmail: KeyEmail}},

		{"message 9 runes", func(s *Submission) { s.Message = strings.Repeat("ü", 9) }, FieldErrors{FieldMessage: KeyMessage}},
		{"message 10 runes", func(s *Submission) { s.Message = strings.Repeat("ü", 10) }, nil},
		{"message 10 Arabic runes", func(s *Submission) { s.Message = "مرحبا بكم!" }, nil},
		{"message 9 runes padded", func(s *Submission) { s.Message = "   " + strings.Repeat("x", 9) + "\n\n " }, FieldErrors{FieldMessage: KeyMessage}},
		{"message CRLF counts once (9)", func(s *Submission) { s.Message = "abcd\r\nefgh" }, FieldErrors{FieldMessage: KeyMessage}},
		{"message CRLF counts once (10)", func(s *Submission) { s.Message = "abcde\r\nfghi" }, nil},
		{"message 5000 runes", func(s *Submission) { s.Message = strings.Repeat("ß", 5000) }, nil},
		{"message 5001 runes", func(s *Submission) { s.Message = strings.Repeat("ß", 5001) }, FieldErrors{FieldMessage: KeyMessage}},
		{"message empty", func(s *Submission) { s.Message = "" }, FieldErrors{FieldMessage: KeyMessage}},
		{"message with tabs and lines", func(s *Submission) { s.Message = "Line one\n\tLine two\r\nLine three" }, nil},
		{"message with escape sequence", func(s *Submission) { s.Message = "Hello \x1b[2J world!" }, FieldErrors{FieldMessage: KeyMessage}},
		{"message with NUL", func(s *Submission) { s.Message = "Hello \x00 world!" }, FieldErrors{FieldMessage: KeyMessage}},

		{"service empty", func(s *Submission) { s.Service = "" }, nil},
		{"service custom-software", func(s *Submission) { s.Service = ServiceCustomSoftware }, nil},
		{"service platform-engineering", func(s *Submission) { s.Service = ServicePlatformEngineering }, nil},
		{"service strategic-consulting", func(s *Submission) { s.Service = ServiceStrategicConsulting }, nil},
		{"service not-sure", func(s *Submission) { s.Service = ServiceNotSure }, nil},
		{"service unknown", func(s *Submission) { s.Service = "web-design" }, FieldErrors{FieldService: KeyService}},
		{"service wrong case", func(s *Submission) { s.Service = "Custom-Software" }, FieldErrors{FieldService: KeyService}},

		{"unknown language is not an error", func(s *Submission) { s.Lang = "xx" }, nil},
		{"everything wrong", func(s *Submission) { *s = Submission{Service: "x"} }, FieldErrors{
			FieldName: KeyName, FieldEmail: KeyEmail, FieldMessage: KeyMessage, FieldService: KeyService,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := validSubmission()
			tt.change(&s)
			got := s.Validate()
			if !maps.Equal(got, tt.want) || (got == nil) != (tt.want == nil) {
				t.Errorf("Validate() = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestFieldErrorsError(t *testing.T) {
	err := FieldErrors{FieldName: KeyName, FieldEmail: KeyEmail}
	if got := err.Error(); got != "contact: invalid email, name" {
		t.Errorf("Error() = %q", got)
	}
}

func TestNormalized(t *testing.T) {
	s := Submission{Name: "  Ada ", Email: " ada@example.com\t", Message: "\r\n Hi\r\nthere\r ", Service: " not-sure ", Lang: "fr-CA"}.Normalized()
	want := Submission{Name: "Ada", Email: "ada@example.com", Message: "Hi\nthere", Service: "not-sure", Lang: "fr-CA"}
	if s != want {
		t.Errorf("Normalized() = %+v, want %+v", s, want)
	}
}

// TestMessageLanguage reduces a message's language tag to one of the site's
// by its primary subtag, the default language for any other.
func TestMessageLanguage(t *testing.T) {
	m, err := NewMailer(siteContent(), testBrand(), testInbox)
	if err != nil {
		t.Fatal(err)
	}
	def := m.langs.Default().Code
	tests := map[string]string{"": def, unlisted: def, unlisted + "-FR": def, "english": def}
	for _, code := range siteLanguages(t) {
		tests[code] = code
		tests[strings.ToUpper(code)] = code
		tests[code+"-AT"] = code
		tests[code+"_EG"] = code
	}
	for in, want := range tests {
		if got := m.language(in); got != want {
			t.Errorf("language(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestUnknownFields(t *testing.T) {
	known := []string{FieldName, FieldEmail, FieldMessage, FieldService, FieldLang, FieldHoneypot, FieldRenderedAt}
	if errs := UnknownFields(known); errs != nil {
		t.Errorf("known fields flagged: %v", errs)
	}
	errs := UnknownFields([]string{"name", "phone", "Email"})
	want := FieldErrors{"phone": KeyUnknownField, "Email": KeyUnknownField}
	if !maps.Equal(errs, want) {
		t.Errorf("UnknownFields = %v, want %v", errs, want)
	}
}

func TestSpamReason(t *testing.T) {
	now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name       string
		honeypot   string
		renderedAt time.Time
		want       string
	}{
		{"person", "", now.Add(-time.Minute), ""},
		{"exactly the minimum", "", now.Add(-3 * time.Second), ""},
		{"unknown render time", "", time.Time{}, ""},
		{"honeypot", "https://spam.example", now.Add(-time.Minute), SpamHoneypot},
		{"too fast", "", now.Add(-2 * time.Second), SpamTooFast},
		{"rendered in the future", "", now.Add(time.Hour), SpamTooFast},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := validSubmission()
			s.Honeypot, s.RenderedAt = tt.honeypot, tt.renderedAt
			if got := s.SpamReason(now, DefaultMinFillTime); got != tt.want {
				t.Errorf("SpamReason = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestNormalizedNameIsVisible: the name keeps no character that reorders
// or hides the text around it in a subject, but the joiners that spell it.
func TestNormalizedNameIsVisible(t *testing.T) {
	for in, want := range map[string]string{
		" Eve\u202egnp.exe ":    "Evegnp.exe",
		"\u2066Ada\u2069\u200f": "Ada",
		"می\u200cنا":            "می\u200cنا",
	} {
		sub := validSubmission()
		sub.Name = in
		if got := sub.Normalized().Name; got != want {
			t.Errorf("Normalized name of %q = %q, want %q", in, got, want)
		}
	}
}
