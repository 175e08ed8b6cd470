package main

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
)

// The staff command on the database the configuration names: an
// invitation link from BASE_URL, the list, and the removal.
func TestStaffCommand(t *testing.T) {
	env := map[string]string{"DATA_DIR": t.TempDir(), "BASE_URL": "https://northbeam.example"}
	run := func(args ...string) (string, error) {
		var out bytes.Buffer
		err := staffCommand(args, func(name string) string { return env[name] }, &out)
		return out.String(), err
	}
	out, err := run("invite", " Ada@Northbeam.example ")
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`(?m)^Invitation for ada@northbeam\.example, valid once until \d{4}-\d\d-\d\d \d\d:\d\d UTC:\nhttps://northbeam\.example/staff/enrol\?token=[A-Za-z0-9_-]{43}$`).MatchString(out) {
		t.Errorf("invite printed:\n%s", out)
	}
	out, err = run("list")
	if err != nil || !strings.Contains(out, "ada@northbeam.example  0         0") || !strings.Contains(out, "open until") {
		t.Errorf("list printed (%v):\n%s", err, out)
	}
	if out, err = run("remove", "ada@northbeam.example"); err != nil || !strings.Contains(out, "no longer has access") {
		t.Errorf("remove: %v\n%s", err, out)
	}
	if _, err = run("remove", "ada@northbeam.example"); err == nil || !strings.Contains(err.Error(), "has no access") {
		t.Errorf("removing twice: %v", err)
	}
	if out, _ = run("list"); !strings.Contains(out, "Nobody has access") {
		t.Errorf("list after removal:\n%s", out)
	}
	for _, bad := range [][]string{{}, {"invite"}, {"invite", "a@b.c", "d@e.f"}, {"grant", "a@b.c"}, {"invite", "nobody"}} {
		if _, err := run(bad...); err == nil {
			t.Errorf("staff %v: accepted", bad)
		}
	}
}
