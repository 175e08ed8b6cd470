package sitebuild

import (
	"io/fs"
	"net/http"

	"github.com/northbeam/site/internal/site"
	"github.com/northbeam/site/internal/work"
)

// The case studies live at /work (the list, a static route) and
// /work/<slug> (a study, its slug in its own language), in every language;
// both are prerendered with the other pages.

func studyPath(lang site.Language, slug string) string {
	return lang.LocalPath("/work/" + slug)
}

// loadWork loads the case studies.
func loadWork(content fs.FS, opts Options, images *contentImages) (*work.Library, error) {
	return work.LoadAgain(content, "work", images.lib.Picture, opts.Parsed.studies(), articleOptions(opts, images)...)
}

// workListData is the payload data of the list of case studies.
type workListData struct {
	Studies      []work.Summary     `json:"studies"`
	Testimonials []work.Testimonial `json:"testimonials"`
}

// studyData is the payload data of a case study's page.
type studyData struct {
	*work.Study
	Translations []work.Translation `json:"translations"`
	More         []work.Summary     `json:"more"` // the language's other studies
}

// workIndex fills in the list page of lang (/work), a static route.
func (s *Build) workIndex(p page) page {
	p.data = workListData{Studies: s.work.Summaries(p.lang.Code), Testimonials: s.work.Testimonials(p.lang.Code)}
	return p
}

// studyPage is the page of lang's study with slug, or work.ErrNotFound.
func (s *Build) studyPage(lang site.Language, slug string) (page, error) {
	st, err := s.work.Study(lang.Code, slug)
	if err != nil {
		return page{}, err
	}
	alternates := map[string]string{lang.Code: studyPath(lang, slug)}
	var translations []work.Translation
	for _, t := range s.work.Translations(st) {
		if l, ok := s.Info.Language(t.Lang); ok {
			alternates[l.Code] = studyPath(l, t.Slug)
			translations = append(translations, t)
		}
	}
	var more []work.Summary
	for _, sum := range s.work.Summaries(lang.Code) {
		if sum.Slug != slug {
			more = append(more, sum)
		}
	}
	path := studyPath(lang, slug)
	share := s.sharePath(lang, s.Locales.T(lang.Code, "work.kind"), st.Title)
	return page{
		share:       share,
		shareAlt:    st.Title,
		path:        path,
		lang:        lang,
		component:   "CaseStudy",
		status:      http.StatusOK,
		title:       s.siteTitle(lang.Code, st.Title),
		description: st.Description,
		alternates:  alternates,
		data:        studyData{Study: st, Translations: translations, More: more},
		modified:    st.Published,
		article:     true,
		jsonLD:      s.studyLD(lang, st, path, share),
	}, nil
}

// planWork plans lang's case studies.
func (s *Build) planWork(lang site.Language) error {
	for _, st := range s.work.Studies(lang.Code) {
		p, err := s.studyPage(lang, st.Slug)
		if err != nil {
			return err
		}
		s.addPage(p)
	}
	return nil
}

// studyLD describes a case study as an Article about the client's
// engagement, and where it sits (home, case studies, study).
func (s *Build) studyLD(lang site.Language, st *work.Study, path, share string) []any {
	u := s.opts.BaseURL + path
	org := s.organizationRef()
	sep := s.Locales.T(lang.Code, "work.separator")
	article := map[string]any{
		"@context":         "https://schema.org",
		"@type":            "Article",
		"genre":            "case study",
		"headline":         st.Title,
		"description":      st.Description,
		"inLanguage":       lang.Tag,
		"datePublished":    ldTime(st.Published),
		"dateModified":     ldTime(st.Published),
		"author":           org,
		"publisher":        org,
		"mainEntityOfPage": u,
		"url":              u,
		// The cover (16:9, 1600 px wide), then the share image.
		"image":    []string{s.opts.BaseURL + st.Cover.Src, s.shareImageURL(share)},
		"about":    map[string]string{"@type": "Organization", "description": st.Client + " (" + st.Sector + sep + st.Size + ")"},
		"keywords": st.Stack,
	}
	return []any{article, s.breadcrumbsLD(lang, "work.title", "/work", st.Title, u)}
}
