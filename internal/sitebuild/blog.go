package sitebuild

import (
	"fmt"
	"io/fs"
	"net/http"
	"net/url"
	"strconv"

	"github.com/northbeam/site/internal/blog"
	"github.com/northbeam/site/internal/intl"
	"github.com/northbeam/site/internal/markdown"
	"github.com/northbeam/site/internal/site"
	"github.com/northbeam/site/render"
)

// URL shapes of the blog, in every language (English without a prefix):
//
//	/blog                      the newest posts
//	/blog/page/2               older posts, PerPage to a page
//	/blog/tag/<tag>            the posts with a tag; /blog/tag/<tag>/page/2 ...
//	/blog/<slug>               a post
//	/blog/feed.xml             the Atom feed
//
// A tag's path holds its slug, derived from its name in the post's language
// ("Platform engineering": "platform-engineering", "هندسة المنصات":
// "هندسة-المنصات"); paths are percent-encoded, the way browsers show them
// in location.pathname, so the path the client routes on is the payload's
// path.

// listPath returns the path of page number of lang's list, restricted to
// tag (a slug) unless it is empty.
func listPath(lang site.Language, tag string, number int) string {
	p := "/blog"
	if tag != "" {
		p += "/tag/" + url.PathEscape(tag)
	}
	if number > 1 {
		p += "/page/" + strconv.Itoa(number)
	}
	return lang.LocalPath(p)
}

func postPath(lang site.Language, slug string) string {
	return lang.LocalPath("/blog/" + slug)
}

// FeedPath is the path of the Atom feed of lang's blog.
func FeedPath(lang site.Language) string {
	return lang.LocalPath("/blog/feed.xml")
}

// blogListData is the payload data of a page of the list.
type blogListData struct {
	blog.Page
	Feed string `json:"feed,omitempty"` // path of the language's feed; empty without posts
}

// shellIDs are the ids the page around an article (a post, a case study,
// a person) already uses, which its headings must not take.
var shellIDs = markdown.WithReservedIDs("root", "main", "page-data", "footer-quick", "footer-services", "footer-legal")

// articleOptions are the Markdown options of a post or a case study: its
// pictures, the shell's ids, and the site's own host for its links.
func articleOptions(opts Options, images *contentImages) []markdown.Option {
	mdOpts := []markdown.Option{images.markdownOption(), shellIDs}
	if u, err := url.Parse(opts.BaseURL); err == nil && u.Host != "" {
		mdOpts = append(mdOpts, markdown.WithInternalHosts(u.Hostname()))
	}
	return mdOpts
}

// loadBlog loads the posts, dated in their languages; drafts only in
// development mode.
func loadBlog(content fs.FS, opts Options, images *contentImages, dates *intl.Formatter) (*blog.Library, error) {
	posts, err := blog.LoadAgain(content, "blog", opts.Dev, dates.FormatDate, opts.Parsed.posts(), articleOptions(opts, images)...)
	if err != nil {
		return nil, err
	}
	if err := images.covers(posts); err != nil {
		return nil, err
	}
	return posts, nil
}

// blogIndex is the first page of lang's list (/blog), a static route.
func (s *Build) blogIndex(lang site.Language) page {
	// The first page of a list without a tag exists even without posts.
	p, _ := s.blogListPage(lang, 1, "")
	return p
}

// blogListPage is page number of lang's list, restricted to tag unless it
// is empty, or blog.ErrNotFound.
func (s *Build) blogListPage(lang site.Language, number int, tag string) (page, error) {
	data, err := s.blog.Page(lang.Code, number, tag)
	if err != nil {
		return page{}, err
	}
	var feed string
	if s.blog.Count(lang.Code) > 0 {
		feed = FeedPath(lang)
	}
	// The list is made again when its payload is written (lazyData): the
	// library does not change within a build.
	list := lazyData(func() any {
		data, _ := s.blog.Page(lang.Code, number, tag) // found above
		return blogListData{Page: data, Feed: feed}
	})
	p := page{
		path:       listPath(lang, tag, number),
		lang:       lang,
		component:  "BlogList",
		status:     http.StatusOK,
		data:       list,
		alternates: map[string]string{},
		links:      s.feedLinks(lang),
	}
	// The same list in another language is the same page when it exists
	// there: same tag, same page number.
	for _, l := range s.Info.Languages {
		if _, err := s.blog.Page(l.Code, number, tag); err == nil {
			p.alternates[l.Code] = listPath(l, tag, number)
		}
	}
	title := s.Locales.T(lang.Code, "meta.blog.title")
	p.description = s.Locales.T(lang.Code, "meta.blog.description", "name", s.Info.Name)
	if tag != "" {
		title = s.Locales.T(lang.Code, "blog.tagTitle", "tag", data.TagName)
		p.description = s.Locales.T(lang.Code, "meta.blog.tagDescription", "tag", data.TagName, "name", s.Info.Name)
	}
	if number > 1 {
		title = s.Locales.T(lang.Code, "meta.blog.pageTitle", "title", title, "page", strconv.Itoa(number))
	}
	p.title = s.siteTitle(lang.Code, title)
	return p, nil
}

// blogPostData is the payload data of a post's page.
type blogPostData struct {
	blog.Article
	AuthorPath string `json:"authorPath,omitempty"` // the author's page on the team
}

// authorPath is the path of the page of a post's author in lang, or "".
func (s *Build) authorPath(lang site.Language, name string) string {
	if p, ok := s.team.ByName(lang.Code, name); ok {
		return personPath(lang, p.Slug)
	}
	return ""
}

// blogPostPage is the page of lang's post with slug, or blog.ErrNotFound.
func (s *Build) blogPostPage(lang site.Language, slug string) (page, error) {
	post, err := s.blog.Post(lang.Code, slug)
	if err != nil {
		return page{}, err
	}
	// Only real translations, and only in the site's languages.
	alternates := map[string]string{lang.Code: postPath(lang, slug)}
	translations, _ := s.blog.Translations(lang.Code, slug)
	for _, t := range translations {
		if l, ok := s.Info.Language(t.Lang); ok {
			alternates[l.Code] = postPath(l, t.Slug)
		}
	}
	// The article is made again when its payload is written (lazyData):
	// the library does not change within a build.
	data := lazyData(func() any {
		article, _ := s.blog.Article(lang.Code, slug) // found above
		translations := make([]blog.Translation, 0, len(article.Translations))
		for _, t := range article.Translations {
			if _, ok := s.Info.Language(t.Lang); ok {
				translations = append(translations, t)
			}
		}
		article.Translations = translations
		return blogPostData{Article: article, AuthorPath: s.authorPath(lang, post.Author)}
	})
	share := s.sharePath(lang, s.Locales.T(lang.Code, "blog.title"), post.Title)
	return page{
		modified:    post.LastModified(),
		article:     true,
		share:       share,
		shareAlt:    post.Title,
		jsonLD:      s.postLD(lang, post, postPath(lang, slug), share),
		path:        postPath(lang, slug),
		lang:        lang,
		component:   "BlogPost",
		status:      http.StatusOK,
		title:       s.siteTitle(lang.Code, post.Title),
		description: post.Description,
		alternates:  alternates,
		data:        data,
		links:       s.feedLinks(lang),
		text:        post.Body,
	}, nil
}

// planBlog plans lang's blog pages but the first page of the list, which
// is a static route (see staticPages): the other pages of the list, every
// tag's pages and every post, each made on its first use (addPlannedPage):
// what New does for each is to name its path.
func (s *Build) planBlog(lang site.Language) {
	first, err := s.blog.Page(lang.Code, 1, "")
	if err != nil {
		return // page 1 exists, without posts too
	}
	list := func(n int, tag string) {
		s.addPlannedPage(lang, listPath(lang, tag, n), "BlogList", func() page {
			p, _ := s.blogListPage(lang, n, tag) // found: the library lists it
			return p
		})
	}
	for n := 2; n <= first.TotalPages; n++ {
		list(n, "")
	}
	for _, tc := range s.blog.Tags(lang.Code) {
		for n := 1; n <= (tc.Count+blog.PerPage-1)/blog.PerPage; n++ {
			list(n, tc.Tag)
		}
	}
	for _, post := range s.blog.Posts(lang.Code) {
		s.addPlannedPage(lang, postPath(lang, post.Slug), "BlogPost", func() page {
			p, _ := s.blogPostPage(lang, post.Slug) // found: the library lists it
			return p
		})
	}
}

// buildFeed builds lang's Atom feed, if lang has posts.
func (s *Build) buildFeed(lang site.Language) error {
	if s.blog.Count(lang.Code) == 0 {
		return nil
	}
	feed, err := s.blog.AtomFeed(lang.Code, blog.FeedConfig{
		BaseURL:      s.opts.BaseURL,
		Title:        s.Locales.T(lang.Code, "meta.blog.feedTitle", "name", s.Info.Name),
		Author:       s.Info.Name,
		SelfURL:      FeedPath(lang),
		AlternateURL: listPath(lang, "", 1),
		PostURL: func(code, slug string) string {
			l, _ := s.Info.Language(code)
			return postPath(l, slug)
		},
	})
	if err != nil {
		return fmt.Errorf("blog (%s): %w", lang.Code, err)
	}
	// Feed readers poll: an hour of freshness, then a cheap revalidation.
	r := render.NewResource("application/atom+xml; charset=utf-8", "public, max-age=3600", http.StatusOK, feed)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.feeds[FeedPath(lang)] = r
	return nil
}

// feedLinks are the head links of a blog page: its language's feed, when
// there is one.
func (s *Build) feedLinks(lang site.Language) []render.Link {
	if s.blog.Count(lang.Code) == 0 {
		return nil
	}
	return []render.Link{{
		Rel:   "alternate",
		Type:  "application/atom+xml",
		Title: s.Locales.T(lang.Code, "meta.blog.feedTitle", "name", s.Info.Name),
		Href:  s.opts.BaseURL + FeedPath(lang),
	}}
}
