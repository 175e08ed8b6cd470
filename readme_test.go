package main

import (
	"encoding/json"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestReadmeListsTheShippedNpmPackages holds the README's list of the npm
// packages that ship to browsers (which an operator checks by hand while
// no advisory data is reachable) to package-lock.json: package.json's
// dependencies, and what they depend on, at their locked versions.
func TestReadmeListsTheShippedNpmPackages(t *testing.T) {
	raw, err := os.ReadFile("package-lock.json")
	if err != nil {
		t.Fatal(err)
	}
	var lock struct {
		Packages map[string]struct {
			Version      string            `json:"version"`
			Dependencies map[string]string `json:"dependencies"`
		} `json:"packages"`
	}
	if err := json.Unmarshal(raw, &lock); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	var direct, through []string
	var visit func(from, name string, isDirect bool)
	visit = func(from, name string, isDirect bool) {
		// Node resolves a dependency from its dependent outwards.
		dir := from
		for {
			if _, ok := lock.Packages[join(dir, name)]; ok || dir == "" {
				break
			}
			if i := strings.LastIndex(dir, "/node_modules/"); i >= 0 {
				dir = dir[:i]
			} else {
				dir = ""
			}
		}
		at := join(dir, name)
		p, ok := lock.Packages[at]
		if !ok {
			t.Errorf("%s: not in package-lock.json", name)
			return
		}
		id := name + "@" + p.Version
		if seen[id] {
			return
		}
		seen[id] = true
		if isDirect {
			direct = append(direct, id)
		} else {
			through = append(through, id)
		}
		for dep := range p.Dependencies {
			visit(at, dep, false)
		}
	}
	for dep := range lock.Packages[""].Dependencies {
		visit("", dep, true)
	}

	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	listed := func(label string) []string {
		m := regexp.MustCompile(`(?m)^- ` + label + `: (.+)$`).FindSubmatch(readme)
		if m == nil {
			t.Fatalf("README.md has no line starting %q", "- "+label+":")
		}
		return strings.Split(string(m[1]), ", ")
	}
	for _, l := range []struct {
		label string
		want  []string
	}{{"direct", direct}, {"through them", through}} {
		got := listed(l.label)
		slices.Sort(got)
		slices.Sort(l.want)
		if !slices.Equal(got, l.want) {
			t.Errorf("README.md, shipped npm packages, %s:\n got %s\nwant %s", l.label, strings.Join(got, ", "), strings.Join(l.want, ", "))
		}
	}
}

func join(dir, name string) string {
	if dir == "" {
		return "node_modules/" + name
	}
	return dir + "/node_modules/" + name
}
