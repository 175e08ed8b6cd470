// Package legal loads the legal texts (privacy and cookie policies, imprint) from
// content/legal/<lang>/<name>.md, fills in the brand facts of site.json and
// renders them to HTML.
package legal

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"time"

	"github.com/northbeam/site/internal/content"
	"github.com/northbeam/site/internal/intl"
	"github.com/northbeam/site/internal/markdown"
	"github.com/northbeam/site/internal/site"
)

// Names are the legal texts every language has.
var Names = []string{"privacy", "cookies", "imprint"}

// Doc is one legal text, rendered.
type Doc struct {
	Name        string `json:"name"`
	Title       string `json:"title"`
	Description string `json:"description"`
	HTML        string `json:"html"`
}

type frontMatter struct {
	Title       string `yaml:"title"`
	Description string `yaml:"description"`
}

// Settings are the parts of the site's configuration that the legal texts
// state.
type Settings struct {
	// RetentionMonths is how long personal data is kept (RETENTION), which
	// the {{retention}} placeholder states and the retention job enforces;
	// 0 means 12.
	RetentionMonths int
	// Dates writes the date of the texts' last update in each language.
	Dates *intl.Formatter
	// Texts are the visitors' strings: "privacy.retention" counts the
	// months of {{retention}} in each language, "privacy.spamRetention"
	// the days of {{spamRetention}}.
	Texts *site.Locales
	// SpamRetentionDays is how long a message flagged as spam is kept
	// (contact.SpamRetention), which {{spamRetention}} states.
	SpamRetentionDays int
	// Analytics is whether the site has analytics (GA_MEASUREMENT_ID is
	// set): the lines between "{{if analytics}}" and "{{else}}" or
	// "{{end}}" are kept only then, those between "{{else}}" and "{{end}}"
	// only without.
	Analytics bool
}

// Load reads, fills in and renders every legal text in every language.
func Load(fsys fs.FS, dir string, s *site.Info, settings Settings) (map[string]map[string]Doc, error) {
	if settings.RetentionMonths <= 0 {
		settings.RetentionMonths = 12
	}
	if settings.Dates == nil || settings.Texts == nil || settings.SpamRetentionDays <= 0 {
		return nil, fmt.Errorf("legal: the dates, the texts and the spam retention are required")
	}
	updated, err := time.Parse(time.DateOnly, s.LegalUpdated)
	if err != nil {
		return nil, fmt.Errorf("legal: site.json legalUpdated: %w", err)
	}
	md := markdown.New()
	docs := map[string]map[string]Doc{}
	for _, lang := range s.Languages {
		docs[lang.Code] = map[string]Doc{}
		for _, name := range Names {
			file := path.Join(dir, lang.Code, name+".md")
			src, err := fs.ReadFile(fsys, file)
			if err != nil {
				return nil, fmt.Errorf("legal: %w", err)
			}
			if src, err = keepWhen(src, map[string]bool{"analytics": settings.Analytics}); err != nil {
				return nil, fmt.Errorf("legal: %s: %w", file, err)
			}
			var fm frontMatter
			_, body, errs, ok := content.DecodeFrontMatter(file, name, src, &fm)
			if !ok {
				return nil, fmt.Errorf("legal: %w", errors.Join(errs...))
			}
			if fm.Title == "" || fm.Description == "" {
				return nil, fmt.Errorf("legal: %s: title and description are required", file)
			}
			filled := fill(string(body), s, settings.Dates.FormatDate(lang.Code, updated),
				settings.Texts.Plural(lang.Code, "privacy.retention", settings.RetentionMonths),
				settings.Texts.Plural(lang.Code, "privacy.spamRetention", settings.SpamRetentionDays))
			if i := strings.Index(filled, "{{"); i >= 0 {
				end := min(len(filled), i+40)
				return nil, fmt.Errorf("legal: %s: unknown placeholder at %q", file, filled[i:end])
			}
			html, _, err := md.Render([]byte(filled))
			if err != nil {
				return nil, fmt.Errorf("legal: %s: %w", file, err)
			}
			docs[lang.Code][name] = Doc{Name: name, Title: fm.Title, Description: fm.Description, HTML: html}
		}
	}
	return docs, nil
}

// keepWhen keeps the lines of src that its conditions allow: a line
// "{{if NAME}}" opens a block kept when conditions[NAME] holds, "{{else}}"
// turns to the lines kept when it does not, and "{{end}}" closes it; the
// three lines themselves are dropped. Blocks do not nest, so that a policy
// stays readable as Markdown.
func keepWhen(src []byte, conditions map[string]bool) ([]byte, error) {
	var out bytes.Buffer
	open, keep, sawElse := "", true, false
	for i, line := range bytes.SplitAfter(src, []byte("\n")) {
		directive := strings.TrimSpace(string(line))
		switch {
		case strings.HasPrefix(directive, "{{if ") && strings.HasSuffix(directive, "}}"):
			name := strings.TrimSpace(directive[len("{{if ") : len(directive)-2])
			value, known := conditions[name]
			if open != "" {
				return nil, fmt.Errorf("line %d: {{if %s}} inside {{if %s}}", i+1, name, open)
			}
			if !known {
				return nil, fmt.Errorf("line %d: unknown condition %q", i+1, name)
			}
			open, keep, sawElse = name, value, false
		case directive == "{{else}}":
			if open == "" || sawElse {
				return nil, fmt.Errorf("line %d: {{else}} without its {{if}}", i+1)
			}
			keep, sawElse = !conditions[open], true
		case directive == "{{end}}":
			if open == "" {
				return nil, fmt.Errorf("line %d: {{end}} without its {{if}}", i+1)
			}
			open, keep = "", true
		case keep:
			out.Write(line)
		}
	}
	if open != "" {
		return nil, fmt.Errorf("{{if %s}} is not closed with {{end}}", open)
	}
	return out.Bytes(), nil
}

// fill replaces the {{site.*}}, {{updated}}, {{retention}} and
// {{spamRetention}} placeholders.
func fill(text string, s *site.Info, updated, retention, spamRetention string) string {
	return strings.NewReplacer(
		"{{site.name}}", s.Name,
		"{{site.legalName}}", s.LegalName,
		"{{site.email}}", s.Email,
		"{{site.phone}}", s.Phone,
		"{{site.address}}", s.Address.OneLine(),
		"{{site.address.street}}", s.Address.Street,
		"{{site.address.postalCode}}", s.Address.PostalCode,
		"{{site.address.city}}", s.Address.City,
		"{{site.representative}}", s.Representative,
		"{{site.registration}}", s.Registration,
		"{{site.vatId}}", s.VATID,
		"{{updated}}", updated,
		"{{retention}}", retention,
		"{{spamRetention}}", spamRetention,
	).Replace(text)
}
