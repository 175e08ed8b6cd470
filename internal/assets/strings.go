package assets

import (
	"bytes"
	"crypto/sha256"
	"encoding/base32"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/northbeam/site/internal/jsonpos"
)

// StringGroups is the file the client spec's "strings" option names
// (frontend/lib/strings.json): how each language's strings, one file per
// language that the translators edit, are cut into groups, so that a page
// loads only the strings it shows (the page table says which: PageTable).
// The build makes a module of each language and group (Files), served
// beside the client's chunks under a directory named by their version
// (StringFiles.Dir); each page says where in its payload (the manifest's
// StringsBase), so that no bundle holds it and a saved string builds
// none, and its HTML preloads those of its page.
type StringGroups struct {
	// Source is the directory of the <lang>.json files, from the project root.
	Source string `json:"source"`
	// Groups lists each group's keys by dotted prefix ("nav" is every key
	// under nav, "blog.tags" one key, its plural forms included). A key may
	// be in several groups; a key in none is the server's only (page
	// titles, API errors).
	Groups map[string][]string `json:"groups"`
}

// CommonGroup is the group every page loads: the shell's strings.
const CommonGroup = "common"

// LoadStringGroups reads a groups file and checks the groups' names.
func LoadStringGroups(path string) (*StringGroups, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("assets: strings: %w", err)
	}
	var g StringGroups
	if err := decodeStrictly(b, &g); err != nil {
		return nil, fmt.Errorf("assets: %s: %w", path, err)
	}
	if _, ok := g.Groups[CommonGroup]; !ok {
		return nil, fmt.Errorf("assets: %s: no %q group", path, CommonGroup)
	}
	for name := range g.Groups {
		if !groupName.MatchString(name) {
			return nil, fmt.Errorf("assets: %s: group name %q: letters only", path, name)
		}
	}
	return &g, nil
}

var groupName = regexp.MustCompile(`^[a-zA-Z]+$`)

// languages returns the languages of the source directory, sorted.
func (g *StringGroups) languages(root string) ([]string, error) {
	files, err := filepath.Glob(filepath.Join(root, g.Source, "*.json"))
	if err != nil {
		return nil, err
	}
	var langs []string
	for _, f := range files {
		langs = append(langs, strings.TrimSuffix(filepath.Base(f), ".json"))
	}
	sort.Strings(langs)
	if len(langs) == 0 {
		return nil, fmt.Errorf("assets: strings: no <lang>.json in %s", g.Source)
	}
	return langs, nil
}

// Group returns the strings of one group of a language, as a tree like the
// language's file. A prefix that matches no key is an error: the groups
// file and the strings have drifted apart.
func (g *StringGroups) Group(root, lang, group string) (map[string]any, error) {
	all, err := g.read(root, lang)
	if err != nil {
		return nil, err
	}
	return g.group(all, lang, group)
}

// read returns a language's strings, its whole file.
func (g *StringGroups) read(root, lang string) (map[string]any, error) {
	name := filepath.Join(root, g.Source, lang+".json")
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	var all map[string]any
	if err := json.Unmarshal(b, &all); err != nil {
		// Named from the project's directory, where the developer finds it.
		return nil, jsonpos.Wrap(filepath.ToSlash(filepath.Join(g.Source, lang+".json")), b, err)
	}
	return all, nil
}

// group picks one group's strings out of all of a language's.
func (g *StringGroups) group(all map[string]any, lang, group string) (map[string]any, error) {
	prefixes, ok := g.Groups[group]
	if !ok {
		return nil, fmt.Errorf("no group %q", group)
	}
	out := map[string]any{}
	for _, prefix := range prefixes {
		if !pick(all, out, strings.Split(prefix, ".")) {
			return nil, fmt.Errorf("%s: group %s: no string under %q", filepath.Join(g.Source, lang+".json"), group, prefix)
		}
	}
	return out, nil
}

// pluralSuffix ends the keys of a plural's forms (i18next's).
var pluralSuffix = regexp.MustCompile(`_(zero|one|two|few|many|other)$`)

// pick copies the subtree of from at path into to, and reports whether
// there was one. The last segment also names a plural's forms.
func pick(from, to map[string]any, path []string) bool {
	head := path[0]
	if len(path) > 1 {
		sub, ok := from[head].(map[string]any)
		if !ok {
			return false
		}
		dst, ok := to[head].(map[string]any)
		if !ok {
			dst = map[string]any{}
			to[head] = dst
		}
		return pick(sub, dst, path[1:])
	}
	found := false
	for k, v := range from {
		if k == head || (pluralSuffix.MatchString(k) && pluralSuffix.ReplaceAllString(k, "") == head) {
			to[k] = merge(to[k], v)
			found = true
		}
	}
	return found
}

// merge returns b laid over a, trees merged key by key.
func merge(a, b any) any {
	am, aok := a.(map[string]any)
	bm, bok := b.(map[string]any)
	if !aok || !bok {
		return b
	}
	for k, v := range bm {
		am[k] = merge(am[k], v)
	}
	return am
}

// StringFiles are the modules of every group of every language, by name
// ("en-common.js"), and their version (a hash of them all).
type StringFiles struct {
	Version string
	Files   map[string][]byte
}

// Dir returns the path of the files under the client's URL prefix:
// "strings/<version>/", under which each group of each language is the
// module <lang>-<group>.js, its strings as the default export. The version
// changes with any string, so the files are cached for good.
func (f *StringFiles) Dir() string { return stringsDir + f.Version + "/" }

// stringsDir is the directory of every version's string files.
const stringsDir = "strings/"

// Files makes the module of every group of every language.
func (g *StringGroups) Files(root string) (*StringFiles, error) {
	langs, err := g.languages(root)
	if err != nil {
		return nil, err
	}
	out := &StringFiles{Files: map[string][]byte{}}
	sum := sha256.New()
	names := make([]string, 0, len(g.Groups))
	for name := range g.Groups {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, lang := range langs {
		all, err := g.read(root, lang)
		if err != nil {
			return nil, fmt.Errorf("assets: strings: %w", err)
		}
		for _, group := range names {
			tree, err := g.group(all, lang, group)
			if err != nil {
				return nil, fmt.Errorf("assets: strings: %w", err)
			}
			var buf bytes.Buffer
			buf.WriteString("export default ")
			enc := json.NewEncoder(&buf)
			enc.SetEscapeHTML(false)
			if err := enc.Encode(tree); err != nil {
				return nil, err
			}
			name := lang + "-" + group + ".js"
			out.Files[name] = buf.Bytes()
			fmt.Fprintf(sum, "%s\x00%s\x00", name, buf.Bytes())
		}
	}
	out.Version = base32.StdEncoding.EncodeToString(sum.Sum(nil))[:8]
	return out, nil
}
