package blog

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"strings"
	"time"
)

// FeedLimit is the number of newest posts a feed carries by default.
const FeedLimit = 20

// FeedConfig says where a feed and the pages it points to live.
type FeedConfig struct {
	// BaseURL is the site's public URL, such as "https://northbeam.dev";
	// the URLs below that start with "/" are joined to it.
	BaseURL string
	// Title names the feed (and, when Author is empty, its author).
	Title string
	// Author is the feed's author name; defaults to Title.
	Author string
	// SelfURL is the feed's own URL (link rel="self").
	SelfURL string
	// AlternateURL is the blog list page in the feed's language (link
	// rel="alternate"); it is also the feed's id.
	AlternateURL string
	// PostURL returns the URL of a post's page; required.
	PostURL func(lang, slug string) string
	// Limit is the number of newest posts to include; 0 means FeedLimit.
	Limit int
}

// Feed returns the Atom 1.0 feed of lang's posts, newest first, with their
// full HTML. postURL returns the URL of a post (a path, joined to baseURL, or
// an absolute URL). By convention postURL(lang, "") is the blog list page,
// used as the feed's alternate link and id, and the feed itself is served
// at that URL followed by "/feed.xml" (for example /fr/blog/feed.xml). Use
// AtomFeed to set those URLs yourself. A language without posts gives
// ErrNotFound.
func (l *Library) Feed(lang, baseURL, siteName string, postURL func(lang, slug string) string) ([]byte, error) {
	list := strings.TrimSuffix(postURL(lang, ""), "/")
	return l.AtomFeed(lang, FeedConfig{
		BaseURL:      baseURL,
		Title:        siteName,
		SelfURL:      list + "/feed.xml",
		AlternateURL: list,
		PostURL:      postURL,
	})
}

// AtomFeed returns the Atom 1.0 feed of lang's posts as cfg describes it.
// The output depends only on the posts and cfg (no clock), so it can be
// cached with an ETag. A language without posts gives ErrNotFound.
func (l *Library) AtomFeed(lang string, cfg FeedConfig) ([]byte, error) {
	posts := l.byLang[lang]
	if len(posts) == 0 {
		return nil, ErrNotFound
	}
	if cfg.PostURL == nil {
		return nil, errors.New("blog: FeedConfig.PostURL is required")
	}
	limit := cfg.Limit
	if limit <= 0 {
		limit = FeedLimit
	}
	posts = posts[:min(limit, len(posts))]
	abs := func(u string) string {
		if strings.Contains(u, "://") {
			return u
		}
		return strings.TrimSuffix(cfg.BaseURL, "/") + "/" + strings.TrimPrefix(u, "/")
	}
	author := cfg.Author
	if author == "" {
		author = cfg.Title
	}

	feed := atomFeed{
		Lang:  lang,
		ID:    abs(cfg.AlternateURL),
		Title: atomText{Type: "text", Text: cfg.Title},
		Links: []atomLink{
			{Rel: "self", Type: "application/atom+xml", Href: abs(cfg.SelfURL)},
			{Rel: "alternate", Type: "text/html", Href: abs(cfg.AlternateURL), HrefLang: lang},
		},
		Author: &atomPerson{Name: author},
	}
	var updated time.Time
	for _, p := range posts {
		html, err := p.Body.HTML()
		if err != nil {
			return nil, fmt.Errorf("blog: the %s feed: %s: %w", lang, p.File, err)
		}
		u := abs(cfg.PostURL(p.Lang, p.Slug))
		entry := atomEntry{
			ID:        u,
			Title:     atomText{Type: "text", Text: p.Title},
			Links:     []atomLink{{Rel: "alternate", Type: "text/html", Href: u, HrefLang: p.Lang}},
			Published: atomTime(p.Published),
			Updated:   atomTime(p.LastModified()),
			Author:    &atomPerson{Name: p.Author},
			Summary:   &atomText{Type: "text", Text: p.Description},
			// xml:base resolves the post's relative links (#anchors, /images).
			Content: &atomHTML{Type: "html", Base: u, HTML: html},
		}
		for _, tag := range p.Tags {
			entry.Categories = append(entry.Categories, atomCategory{Term: tag.Slug, Label: tag.Name})
		}
		if p.LastModified().After(updated) {
			updated = p.LastModified()
		}
		feed.Entries = append(feed.Entries, entry)
	}
	feed.Updated = atomTime(updated)

	var buf bytes.Buffer
	buf.WriteString(xml.Header)
	enc := xml.NewEncoder(&buf)
	enc.Indent("", "  ")
	if err := enc.Encode(feed); err != nil {
		return nil, fmt.Errorf("blog: encoding the %s feed: %w", lang, err)
	}
	buf.WriteByte('\n')
	return buf.Bytes(), nil
}

func atomTime(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// The Atom 1.0 elements (RFC 4287) the feed uses.
type atomFeed struct {
	XMLName xml.Name    `xml:"http://www.w3.org/2005/Atom feed"`
	Lang    string      `xml:"http://www.w3.org/XML/1998/namespace lang,attr,omitempty"`
	ID      string      `xml:"id"`
	Title   atomText    `xml:"title"`
	Updated string      `xml:"updated"`
	Links   []atomLink  `xml:"link"`
	Author  *atomPerson `xml:"author"`
	Entries []atomEntry `xml:"entry"`
}

type atomEntry struct {
	ID         string         `xml:"id"`
	Title      atomText       `xml:"title"`
	Links      []atomLink     `xml:"link"`
	Published  string         `xml:"published"`
	Updated    string         `xml:"updated"`
	Author     *atomPerson    `xml:"author"`
	Categories []atomCategory `xml:"category"`
	Summary    *atomText      `xml:"summary"`
	Content    *atomHTML      `xml:"content"`
}

type atomText struct {
	Type string `xml:"type,attr,omitempty"`
	Base string `xml:"http://www.w3.org/XML/1998/namespace base,attr,omitempty"`
	Text string `xml:",chardata"`
}

// atomHTML is an HTML text construct; CDATA keeps the markup readable and
// about a third smaller than escaped character data.
type atomHTML struct {
	Type string `xml:"type,attr"`
	Base string `xml:"http://www.w3.org/XML/1998/namespace base,attr,omitempty"`
	HTML string `xml:",cdata"`
}

type atomLink struct {
	Rel      string `xml:"rel,attr"`
	Type     string `xml:"type,attr,omitempty"`
	Href     string `xml:"href,attr"`
	HrefLang string `xml:"hreflang,attr,omitempty"`
}

type atomPerson struct {
	Name string `xml:"name"`
}

type atomCategory struct {
	Term  string `xml:"term,attr"`
	Label string `xml:"label,attr,omitempty"` // the tag as readers see it
}
