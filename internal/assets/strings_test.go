package assets

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/evanw/esbuild/pkg/api"
)

var (
	// A quoted dotted name: "contact.form.email", 'nav.home' or `loading`.
	quotedKey = regexp.MustCompile("[\"'`]([a-zA-Z][a-zA-Z0-9_]*(?:\\.[a-zA-Z0-9_]+)*)[\"'`]")
	// A template literal with substitutions: `services.${key}.title`.
	templateKey  = regexp.MustCompile("`([a-zA-Z0-9_.]*\\$\\{[^`]+)`")
	substitution = regexp.MustCompile(`\$\{[^}]+\}`)
)

// flatKeys returns the dotted keys of a strings tree, plural forms under
// their base name.
func flatKeys(prefix string, tree map[string]any, out map[string]bool) {
	for k, v := range tree {
		key := pluralSuffix.ReplaceAllString(k, "")
		if prefix != "" {
			key = prefix + "." + key
		}
		if sub, ok := v.(map[string]any); ok {
			flatKeys(key, sub, out)
		} else {
			out[key] = true
		}
	}
}

// keysUsedBy returns the keys of known that the source of a file names.
func keysUsedBy(t *testing.T, file string, known map[string]bool) map[string]bool {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	used := map[string]bool{}
	for _, m := range quotedKey.FindAllStringSubmatch(string(src), -1) {
		if known[m[1]] {
			used[m[1]] = true
		}
	}
	for _, m := range templateKey.FindAllStringSubmatch(string(src), -1) {
		parts := substitution.Split(m[1], -1)
		for i := range parts {
			parts[i] = regexp.QuoteMeta(parts[i])
		}
		p := regexp.MustCompile("^" + strings.Join(parts, `[a-zA-Z0-9_]+`) + "$")
		for k := range known {
			if p.MatchString(k) {
				used[k] = true
			}
		}
	}
	return used
}

// TestEveryPageLoadsTheStringsItShows builds the client and checks, for
// the entry (the shell), the consent banner and every page, that each
// string their code names is in the groups they load: the shell's and
// the page's own (the groups of frontend/lib/strings.json that the page
// table gives the page). A string missing there would show as its key
// after a client navigation.
func TestEveryPageLoadsTheStringsItShows(t *testing.T) {
	root, cfg := projectConfig(t)
	groups, err := LoadStringGroups(filepath.Join(root, cfg.Client.Strings))
	if err != nil {
		t.Fatal(err)
	}
	table, err := cfg.PageTable(root)
	if err != nil {
		t.Fatal(err)
	}
	opts, err := cfg.ClientOptions(root)
	if err != nil {
		t.Fatal(err)
	}
	opts.Outdir = "dist/client"
	res := api.Build(opts)
	if len(res.Errors) > 0 {
		t.Fatal(formatMessages(res.Errors))
	}
	var meta struct {
		Outputs map[string]struct {
			EntryPoint string                        `json:"entryPoint"`
			Inputs     map[string]struct{}           `json:"inputs"`
			Imports    []struct{ Path, Kind string } `json:"imports"`
		} `json:"outputs"`
	}
	if err := json.Unmarshal([]byte(res.Metafile), &meta); err != nil {
		t.Fatal(err)
	}

	en, err := os.ReadFile(filepath.Join(root, groups.Source, "en.json"))
	if err != nil {
		t.Fatal(err)
	}
	var tree map[string]any
	if err := json.Unmarshal(en, &tree); err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{}
	flatKeys("", tree, known)
	inGroup := map[string]map[string]bool{}
	for name := range groups.Groups {
		g, err := groups.Group(root, "en", name)
		if err != nil {
			t.Fatal(err)
		}
		inGroup[name] = map[string]bool{}
		flatKeys("", g, inGroup[name])
	}

	// What an output's code names, with what it imports: statically, and
	// dynamically unless it is a page or the consent banner (checked on
	// their own).
	own := func(out string) bool {
		ep := meta.Outputs[out].EntryPoint
		return strings.HasPrefix(ep, "frontend/pages/") || ep == "frontend/consent/banner.ts"
	}
	var named func(out string, seen map[string]bool, used map[string]string)
	named = func(out string, seen map[string]bool, used map[string]string) {
		if seen[out] {
			return
		}
		seen[out] = true
		for in := range meta.Outputs[out].Inputs {
			if ext := filepath.Ext(in); !strings.HasPrefix(in, "frontend/") || (ext != ".ts" && ext != ".tsx") {
				continue
			}
			for k := range keysUsedBy(t, filepath.Join(root, in), known) {
				used[k] = in
			}
		}
		for _, imp := range meta.Outputs[out].Imports {
			if imp.Kind == "import-statement" || (imp.Kind == "dynamic-import" && !own(imp.Path)) {
				named(imp.Path, seen, used)
			}
		}
	}
	check := func(what, out string, loads []string) {
		used := map[string]string{}
		named(out, map[string]bool{}, used)
		var missing []string
		for k, file := range used {
			found := false
			for _, g := range loads {
				found = found || inGroup[g][k]
			}
			if !found {
				missing = append(missing, k+" ("+file+")")
			}
		}
		sort.Strings(missing)
		if len(missing) > 0 {
			t.Errorf("%s loads the groups %v, which lack:\n  %s", what, loads, strings.Join(missing, "\n  "))
		}
		if len(used) == 0 {
			t.Errorf("%s names no string: the test cannot see its code", what)
		}
	}

	pages := 0
	for out, o := range meta.Outputs {
		switch ep := o.EntryPoint; {
		case strings.HasSuffix(out, ".css"):
		case ep == "frontend/entry-client.tsx":
			check("the shell", out, []string{CommonGroup})
		case ep == "frontend/consent/banner.ts":
			check("the consent banner", out, []string{CommonGroup, "consent"})
		case strings.HasPrefix(ep, "frontend/pages/"):
			page := strings.TrimSuffix(filepath.Base(ep), filepath.Ext(ep))
			if _, ok := table.Pages[page]; !ok {
				t.Errorf("the page table has no page %s", page)
			}
			check("the page "+page, out, table.StringGroups(page))
			pages++
		}
	}
	if pages < 10 {
		t.Errorf("%d pages found in the build", pages)
	}
	// Every group is loaded by something.
	for name := range groups.Groups {
		used := name == CommonGroup || name == "consent"
		for _, page := range table.Pages {
			used = used || slices.Contains(page.Strings, name)
		}
		if !used {
			t.Errorf("the group %s is loaded by no page", name)
		}
	}
}

// TestStringGroupsRefuseStalePrefixes: a prefix that names no string stops
// the build.
func TestStringGroupsRefuseStalePrefixes(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("locales/en.json", `{"nav": {"home": "Home"}, "blog": {"readingTime_one": "{{count}} minute", "readingTime_other": "{{count}} minutes", "title": "Blog"}}`)
	write("good.json", `{"source": "locales", "groups": {"common": ["nav"], "blog": ["blog.readingTime"]}}`)
	g, err := LoadStringGroups(filepath.Join(dir, "good.json"))
	if err != nil {
		t.Fatal(err)
	}
	files, err := g.Files(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(files.Files["en-blog.js"]); got != `export default {"blog":{"readingTime_one":"{{count}} minute","readingTime_other":"{{count}} minutes"}}`+"\n" {
		t.Errorf("en-blog.js = %s", got)
	}
	if len(files.Version) != 8 {
		t.Errorf("version %q", files.Version)
	}

	write("stale.json", `{"source": "locales", "groups": {"common": ["nav", "footer"]}}`)
	g, err = LoadStringGroups(filepath.Join(dir, "stale.json"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.Files(dir); err == nil || !strings.Contains(err.Error(), `"footer"`) {
		t.Errorf("a prefix naming no string: %v", err)
	}
}
