package assets

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestFrontendTypeChecks runs the TypeScript compiler in strict mode over
// frontend/: esbuild strips types without checking them.
func TestFrontendTypeChecks(t *testing.T) {
	root, _ := filepath.Abs("../..")
	tsc := filepath.Join(root, "node_modules", ".bin", "tsc")
	if _, err := os.Stat(tsc); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("node_modules/.bin/tsc is missing: run npm ci")
		}
		t.Skip("node_modules/.bin/tsc is missing: run npm ci")
	}
	cmd := exec.Command(tsc, "--noEmit", "-p", root)
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("tsc: %v\n%s", err, out)
	}
}

// TestConfigIsDeclarative checks that esbuild.config.mjs evaluates, and that
// an option the builder does not know is refused rather than ignored.
func TestConfigIsDeclarative(t *testing.T) {
	_, cfg := projectConfig(t)
	if cfg.Client.Format != "esm" || !cfg.Client.Splitting || cfg.Server.Format != "iife" || cfg.Server.Supported["dynamic-import"] {
		t.Errorf("unexpected config: %+v", cfg)
	}
	if _, err := parseConfig("x.mjs", []byte(`export default { client: { entryPoints: ["a.ts"], sourcemapp: true }, server: {} }`)); err == nil {
		t.Error("an unknown option was accepted")
	}
	if _, err := parseConfig("x.mjs", []byte(`export const client = {}`)); err == nil {
		t.Error("a config without a default export was accepted")
	}
}

// projectConfig returns the project's root and its esbuild.config.mjs.
func projectConfig(t *testing.T) (string, *Config) {
	t.Helper()
	root, _ := filepath.Abs("../..")
	cfg, err := LoadConfig(filepath.Join(root, "esbuild.config.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	return root, cfg
}
