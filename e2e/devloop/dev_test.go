package devloop

import (
	"testing"

	"github.com/northbeam/site/internal/devserver"
	"github.com/northbeam/site/internal/sitetest"
)

// startDev starts the site under -dev on a copy of the project, which the
// test edits as a developer would; it returns the server and the copy's
// root. The server stops with the test, its log shown if the test failed.
func startDev(t *testing.T) (*devserver.Server, string) {
	t.Helper()
	return startDevOn(t, devserver.CopyTree, sitetest.Root())
}

// startDevOn is startDev with the copy made by copyTo and the binary built
// from the folder that build names ("" for the copy itself): the Go restart
// test copies the module and builds from its copy.
func startDevOn(t *testing.T, copyTo func(from, to string) error, build string) (*devserver.Server, string) {
	t.Helper()
	root := t.TempDir()
	if err := copyTo(sitetest.Root(), root); err != nil {
		t.Fatal(err)
	}
	if build == "" {
		build = root
	}
	bin, err := devserver.Build(build, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	dev, err := devserver.Start(bin, root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("the dev server's log:\n%s", dev.Log())
		}
		dev.Stop()
	})
	return dev, root
}
