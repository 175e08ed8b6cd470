package assets

import (
	"encoding/json"
	"fmt"
	"path"
	"sort"
	"strings"
)

// Manifest says which files a page needs.
type Manifest struct {
	Boot  string              `json:"boot"`  // URL of the first script, which starts the entry after the first paint
	Entry string              `json:"entry"` // URL of the client entry module
	CSS   []string            `json:"css"`   // URLs of the stylesheets
	Pages map[string][]string `json:"pages"` // page name -> its chunk and the chunks it imports
	// Strings maps a language code and a string group to the group's
	// chunk; PageStrings lists the groups of each page, CommonGroup first
	// (see StringGroups).
	Strings     map[string]map[string]string `json:"strings"`
	PageStrings map[string][]string          `json:"pageStrings"`
	// StringsBase is the URL the string groups' modules are under
	// ("/assets/strings/<version>/"), which each page's payload gives the
	// client: no bundle holds it.
	StringsBase string `json:"stringsBase"`
	// ConsentCSS is the consent banner's stylesheet, which its chunk links
	// when it starts: in no page's stylesheet.
	ConsentCSS string `json:"consentCSS"`
	// Staff is what the staff workspace's pages load: nothing of it is in
	// the fields above, nor any of those in it.
	Staff StaffManifest `json:"staff"`
}

// StaffManifest says which files the staff workspace's pages need.
type StaffManifest struct {
	Entry   string            `json:"entry"`   // URL of the workspace's entry module
	CSS     []string          `json:"css"`     // URLs of its stylesheets
	Locales map[string]string `json:"locales"` // language code -> the chunk of its strings
}

// StringsOf returns the chunks of the strings a page shows in a language.
func (m Manifest) StringsOf(page, lang string) []string {
	groups := m.PageStrings[page]
	if groups == nil {
		groups = []string{CommonGroup}
	}
	out := make([]string, 0, len(groups))
	for _, g := range groups {
		if u := m.Strings[lang][g]; u != "" {
			out = append(out, u)
		}
	}
	return out
}

// Preloads returns the modules to preload for a page in a language: the
// page's chunks and its strings in that language, without the entry itself.
func (m Manifest) Preloads(page, lang string) []string {
	seen := map[string]bool{m.Entry: true}
	var out []string
	for _, u := range append(m.StringsOf(page, lang), m.Pages[page]...) {
		if !seen[u] {
			seen[u] = true
			out = append(out, u)
		}
	}
	return out
}

// staffManifest reads the staff build's metafile: its entry, stylesheet
// and the chunk of each language's strings.
func staffManifest(meta, outdir string) (StaffManifest, error) {
	var mf metafile
	if err := json.Unmarshal([]byte(meta), &mf); err != nil {
		return StaffManifest{}, fmt.Errorf("assets: staff metafile: %w", err)
	}
	url := func(out string) string { return URLPrefix + strings.TrimPrefix(out, outdir+"/") }
	m := StaffManifest{Locales: map[string]string{}}
	for out, o := range mf.Outputs {
		switch {
		case o.EntryPoint == "" || !strings.HasSuffix(out, ".js"):
		case strings.HasPrefix(o.EntryPoint, "frontend/staff/"):
			m.Entry = url(out)
			if o.CSSBundle != "" {
				m.CSS = append(m.CSS, url(o.CSSBundle))
			}
		case strings.HasPrefix(o.EntryPoint, "content/staff/locales/"):
			m.Locales[strings.TrimSuffix(path.Base(o.EntryPoint), ".json")] = url(out)
		}
	}
	if m.Entry == "" {
		return m, fmt.Errorf("assets: no staff entry in the build")
	}
	return m, nil
}

type metafile struct {
	Outputs map[string]struct {
		EntryPoint string `json:"entryPoint"`
		CSSBundle  string `json:"cssBundle"`
		Imports    []struct {
			Path string `json:"path"`
			Kind string `json:"kind"`
		} `json:"imports"`
	} `json:"outputs"`
}

// manifest reads esbuild's metafile: dynamically imported pages and string
// groups are entry points of their own, which is what makes them chunks.
func manifest(meta, outdir string) (Manifest, error) {
	var mf metafile
	if err := json.Unmarshal([]byte(meta), &mf); err != nil {
		return Manifest{}, fmt.Errorf("assets: metafile: %w", err)
	}
	url := func(out string) string { return URLPrefix + strings.TrimPrefix(out, outdir+"/") }
	// staticDeps lists an output and everything it imports statically.
	var staticDeps func(out string, seen map[string]bool) []string
	staticDeps = func(out string, seen map[string]bool) []string {
		if seen[out] {
			return nil
		}
		seen[out] = true
		deps := []string{url(out)}
		for _, imp := range mf.Outputs[out].Imports {
			if imp.Kind == "import-statement" {
				deps = append(deps, staticDeps(imp.Path, seen)...)
			}
		}
		return deps
	}
	m := Manifest{Pages: map[string][]string{}}
	names := make([]string, 0, len(mf.Outputs))
	for out := range mf.Outputs {
		names = append(names, out)
	}
	sort.Strings(names)
	for _, out := range names {
		o := mf.Outputs[out]
		switch {
		case o.EntryPoint == "frontend/consent/consent.css" && strings.HasSuffix(out, ".css"):
			m.ConsentCSS = url(out)
		case o.EntryPoint == "" || !strings.HasSuffix(out, ".js"):
		case o.EntryPoint == "frontend/boot.ts":
			m.Boot = url(out)
		case strings.HasSuffix(o.EntryPoint, "entry-client.tsx"):
			m.Entry = url(out)
			if o.CSSBundle != "" {
				m.CSS = append(m.CSS, url(o.CSSBundle))
			}
		case strings.HasPrefix(o.EntryPoint, "frontend/pages/"):
			page := strings.TrimSuffix(path.Base(o.EntryPoint), path.Ext(o.EntryPoint))
			m.Pages[page] = staticDeps(out, map[string]bool{})
		}
	}
	if m.Entry == "" {
		return m, fmt.Errorf("assets: no client entry in the build")
	}
	if m.Boot == "" {
		return m, fmt.Errorf("assets: no boot script in the build")
	}
	if m.ConsentCSS == "" {
		return m, fmt.Errorf("assets: no consent stylesheet in the build")
	}
	return m, nil
}
