package main

import (
	"errors"
	"os/exec"
	"strings"
	"testing"
)

// TestRefusalsNameTheProgram: what the binary refuses stops it before it
// starts, with exit code 1 and one line that names the program and what is
// wrong, and shows no secret.
func TestRefusalsNameTheProgram(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	bin := buildSite(t)
	for _, tc := range []struct {
		args, env []string
		want      string
	}{
		{[]string{"-hsts", "sometimes"}, nil, `northbeam-site: configuration: HSTS "sometimes": must be auto, always or off`},
		{nil, []string{"DATABASE_URL=mysql://site:s3cret@db/site"}, "northbeam-site: configuration: DATABASE_URL: must look like postgres://user:password@host:5432/database"},
		{[]string{"-dev"}, []string{"ADDR=0.0.0.0:8080"}, `northbeam-site: configuration: ADDR "0.0.0.0:8080": -dev shows the sources and their errors to whoever reaches it, so it listens on loopback only (such as 127.0.0.1:8080); set DEV_PUBLIC=true to serve it on the network`},
		{[]string{"backup"}, nil, "northbeam-site: backup: usage: northbeam-site backup FILE, or northbeam-site backup -dir DIR [-keep N]"},
		{[]string{"staff", "grant"}, nil, "northbeam-site: staff: usage:\n  northbeam-site staff invite EMAIL"},
	} {
		cmd := exec.Command(bin, tc.args...)
		cmd.Dir = t.TempDir()
		cmd.Env = tc.env // nothing else: the defaults
		out, err := cmd.CombinedOutput()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 1 {
			t.Errorf("%v %v: %v, want exit code 1", tc.env, tc.args, err)
		}
		if !strings.HasPrefix(string(out), tc.want) || strings.Contains(string(out), "s3cret") {
			t.Errorf("%v %v printed:\n%s\nwant it to start %q", tc.env, tc.args, out, tc.want)
		}
	}
}
