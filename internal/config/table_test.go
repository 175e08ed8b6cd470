package config

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestReadmeTableIsTheSettingsTable holds README.md's configuration table
// to the table of settings: every variable of one is in the other, with
// the same default, as the README writes it.
func TestReadmeTableIsTheSettingsTable(t *testing.T) {
	raw, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(raw), "\n## Configuration\n")
	if !ok {
		t.Fatal("README.md has no Configuration section")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	documented := map[string]string{} // variable -> its default column
	for line := range strings.SplitSeq(section, "\n") {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), " | ")
		if len(cells) < 3 {
			t.Errorf("README.md: a row of fewer than three columns: %s", line)
			continue
		}
		for _, m := range regexp.MustCompile("`([A-Z0-9_]+)`").FindAllStringSubmatch(cells[0], -1) {
			documented[m[1]] = strings.TrimSpace(cells[1])
		}
	}
	for _, s := range settings() {
		want := s.readme
		switch {
		case want != "":
		case s.def == "":
			want = "empty"
		default:
			want = "`" + s.def + "`"
		}
		got, ok := documented[s.name]
		switch {
		case !ok:
			t.Errorf("README.md's configuration table lacks %s", s.name)
		case got != want:
			t.Errorf("README.md gives %s the default %s; the settings say %s", s.name, got, want)
		}
		delete(documented, s.name)
	}
	for name := range documented {
		t.Errorf("README.md documents %s, which is no setting", name)
	}
}

// TestConfigFieldsAreTheSettings holds the comments of Config's fields to
// the table of settings: one field per setting, which names its variable
// and its default as the table writes it.
func TestConfigFieldsAreTheSettings(t *testing.T) {
	file, err := parser.ParseFile(token.NewFileSet(), "config.go", nil, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	defaults := map[string]string{}
	for _, s := range settings() {
		defaults[s.name] = s.def
	}
	ast.Inspect(file, func(n ast.Node) bool {
		spec, ok := n.(*ast.TypeSpec)
		if !ok || spec.Name.Name != "Config" {
			return true
		}
		comment := regexp.MustCompile(`^([A-Z0-9_]+), default ("(?:[^"\\]|\\.)*")`)
		for _, field := range spec.Type.(*ast.StructType).Fields.List {
			m := comment.FindStringSubmatch(field.Comment.Text())
			if m == nil {
				t.Errorf("Config.%s: its comment does not start with VARIABLE, default \"...\"", field.Names[0])
				continue
			}
			def, ok := defaults[m[1]]
			if !ok {
				t.Errorf("Config.%s names %s, which is no setting or has a field already", field.Names[0], m[1])
				continue
			}
			if written, _ := strconv.Unquote(m[2]); written != def {
				t.Errorf("Config.%s says %s defaults to %s; the settings say %q", field.Names[0], m[1], m[2], def)
			}
			delete(defaults, m[1])
		}
		return false
	})
	for name := range defaults {
		t.Errorf("no field of Config names %s", name)
	}
}
