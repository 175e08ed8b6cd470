// Package assets builds the client and server bundles with esbuild's Go API,
// from the options declared once in esbuild.config.mjs, and describes the
// result (hashed files, the chunk of each page and language) in a Manifest.
package assets

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/dop251/goja"
	"github.com/evanw/esbuild/pkg/api"
)

// spec mirrors the subset of esbuild's options that esbuild.config.mjs may
// use. Unknown keys are refused, so an option is never silently ignored.
type spec struct {
	EntryPoints   []string          `json:"entryPoints"`
	Bundle        bool              `json:"bundle"`
	Platform      string            `json:"platform"`
	Format        string            `json:"format"`
	Splitting     bool              `json:"splitting"`
	Target        string            `json:"target"`
	Minify        bool              `json:"minify"`
	EntryNames    string            `json:"entryNames"`
	ChunkNames    string            `json:"chunkNames"`
	AssetNames    string            `json:"assetNames"`
	PublicPath    string            `json:"publicPath"`
	JSX           string            `json:"jsx"`
	Define        map[string]string `json:"define"`
	Loader        map[string]string `json:"loader"`
	Conditions    []string          `json:"conditions"`
	Supported     map[string]bool   `json:"supported"`
	Alias         map[string]string `json:"alias"`
	Charset       string            `json:"charset"`
	LegalComments string            `json:"legalComments"`
	Tsconfig      string            `json:"tsconfig"`
	// Strings names a string groups file (see StringGroups): the build
	// then cuts each language's strings into a chunk per group.
	Strings string `json:"strings"`
	// Pages names the page table (see PageTable): the build then makes
	// the page lists the bundle imports.
	Pages string `json:"pages"`
	// JoinRenderOutput makes renderToString join its chunks once rather
	// than append each to a string (see joinOutput).
	JoinRenderOutput bool `json:"joinRenderOutput"`
}

// Config is esbuild.config.mjs, evaluated.
type Config struct {
	// Site names content/site.json, whose languages the bundles carry:
	// every bundle may import the modules it derives (see languagesPlugin).
	Site   string `json:"site"`
	Client spec   `json:"client"`
	Server spec   `json:"server"`
	// Staff is the staff workspace's browser bundle: a build of its own,
	// so that no byte of it reaches a visitor's page.
	Staff spec `json:"staff"`
}

// LoadConfig evaluates esbuild.config.mjs.
func LoadConfig(path string) (*Config, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("assets: %w", err)
	}
	return parseConfig(path, src)
}

func parseConfig(name string, src []byte) (*Config, error) {
	_, exports, err := evalModule(name, src, api.LoaderJS)
	if err != nil {
		return nil, err
	}
	var cfg Config
	if err := decodeExport(exports, "default", &cfg); err != nil {
		return nil, fmt.Errorf("assets: %s: %w", name, err)
	}
	return &cfg, nil
}

// PageTable loads the page table that the client bundle names, rooted at
// dir.
func (c *Config) PageTable(dir string) (*PageTable, error) {
	if c.Client.Pages == "" {
		return nil, fmt.Errorf("assets: the client bundle names no page table")
	}
	return LoadPageTable(filepath.Join(dir, c.Client.Pages))
}

// evalModule evaluates an ES module in goja and returns its exports:
// esbuild turns the module into CommonJS and goja runs it, the way Vite
// loads its own config file. So the module may import types only.
func evalModule(name string, src []byte, loader api.Loader) (*goja.Runtime, *goja.Object, error) {
	res := api.Transform(string(src), api.TransformOptions{
		Loader:     loader,
		Format:     api.FormatCommonJS,
		Sourcefile: name,
	})
	if len(res.Errors) > 0 {
		return nil, nil, fmt.Errorf("assets: %s", formatMessages(res.Errors))
	}
	vm := goja.New()
	module := vm.NewObject()
	_ = module.Set("exports", vm.NewObject())
	_ = vm.Set("module", module)
	_ = vm.Set("exports", module.Get("exports"))
	if _, err := vm.RunScript(name, string(res.Code)); err != nil {
		return nil, nil, fmt.Errorf("assets: evaluating %s: %w", name, err)
	}
	return vm, module.Get("exports").ToObject(vm), nil
}

// decodeExport decodes what a module exports under name into dst, by way
// of JSON.
func decodeExport(exports *goja.Object, name string, dst any) error {
	v := exports.Get(name)
	if v == nil || goja.IsUndefined(v) {
		return fmt.Errorf("no export %q", name)
	}
	data, err := json.Marshal(v.Export())
	if err != nil {
		return fmt.Errorf("export %q: %w", name, err)
	}
	return decodeStrictly(data, dst)
}

// decodeStrictly decodes JSON into dst and refuses a key that dst has no
// field for, so that an option or a field is never silently ignored.
func decodeStrictly(data []byte, dst any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	return dec.Decode(dst)
}

// ClientOptions returns the client bundle's options, rooted at dir, as
// Build uses them (the bench builds other entries the same way).
func (c *Config) ClientOptions(dir string) (api.BuildOptions, error) {
	return c.options(c.Client, dir)
}

// ServerOptions returns the server bundle's options, rooted at dir, for
// benchmarks that render other entries in goja the same way.
func (c *Config) ServerOptions(dir string) (api.BuildOptions, error) {
	return c.options(c.Server, dir)
}

// StaffOptions returns the staff workspace's bundle's options, rooted at dir.
func (c *Config) StaffOptions(dir string) (api.BuildOptions, error) {
	return c.options(c.Staff, dir)
}

// options maps a bundle's spec onto esbuild's Go API, rooted at dir, with
// the modules derived from the site's languages.
func (c *Config) options(s spec, dir string) (api.BuildOptions, error) {
	o, err := s.options(dir)
	if err != nil || c.Site == "" {
		return o, err
	}
	langs, err := newLanguageModules(dir, c.Site)
	if err != nil {
		return o, err
	}
	o.Plugins = append(o.Plugins, langs.plugin())
	return o, nil
}

// options maps a spec onto esbuild's Go API, rooted at dir.
func (s spec) options(dir string) (api.BuildOptions, error) {
	o := api.BuildOptions{
		AbsWorkingDir:     dir,
		EntryPoints:       s.EntryPoints,
		Bundle:            s.Bundle,
		Splitting:         s.Splitting,
		MinifyWhitespace:  s.Minify,
		MinifyIdentifiers: s.Minify,
		MinifySyntax:      s.Minify,
		EntryNames:        s.EntryNames,
		ChunkNames:        s.ChunkNames,
		AssetNames:        s.AssetNames,
		PublicPath:        s.PublicPath,
		Define:            s.Define,
		Conditions:        s.Conditions,
		Supported:         s.Supported,
		Alias:             s.Alias,
		Tsconfig:          s.Tsconfig,
		Metafile:          true,
		Write:             false,
		LogLevel:          api.LogLevelSilent,
	}
	var groups *StringGroups
	if s.Strings != "" {
		g, err := LoadStringGroups(filepath.Join(dir, s.Strings))
		if err != nil {
			return o, err
		}
		groups = g
	}
	if s.Pages != "" {
		t, err := LoadPageTable(filepath.Join(dir, s.Pages))
		if err != nil {
			return o, err
		}
		if groups != nil {
			if err := t.checkStrings(groups); err != nil {
				return o, err
			}
		}
		o.Plugins = append(o.Plugins, pagesPlugin(t))
	}
	o.Plugins = append(o.Plugins, legacyServerPlugin(s.JoinRenderOutput))
	var ok bool
	if o.Platform, ok = map[string]api.Platform{"": api.PlatformBrowser, "browser": api.PlatformBrowser, "node": api.PlatformNode, "neutral": api.PlatformNeutral}[s.Platform]; !ok {
		return o, fmt.Errorf("platform %q", s.Platform)
	}
	if o.Format, ok = map[string]api.Format{"esm": api.FormatESModule, "iife": api.FormatIIFE, "cjs": api.FormatCommonJS}[s.Format]; !ok {
		return o, fmt.Errorf("format %q", s.Format)
	}
	if o.Target, ok = map[string]api.Target{"": api.DefaultTarget, "es2017": api.ES2017, "es2018": api.ES2018, "es2019": api.ES2019, "es2020": api.ES2020, "es2021": api.ES2021, "es2022": api.ES2022, "es2023": api.ES2023, "es2024": api.ES2024, "esnext": api.ESNext}[s.Target]; !ok {
		return o, fmt.Errorf("target %q", s.Target)
	}
	if o.JSX, ok = map[string]api.JSX{"": api.JSXTransform, "transform": api.JSXTransform, "automatic": api.JSXAutomatic, "preserve": api.JSXPreserve}[s.JSX]; !ok {
		return o, fmt.Errorf("jsx %q", s.JSX)
	}
	if o.Charset, ok = map[string]api.Charset{"": api.CharsetDefault, "ascii": api.CharsetASCII, "utf8": api.CharsetUTF8}[s.Charset]; !ok {
		return o, fmt.Errorf("charset %q", s.Charset)
	}
	if o.LegalComments, ok = map[string]api.LegalComments{"": api.LegalCommentsDefault, "none": api.LegalCommentsNone, "inline": api.LegalCommentsInline, "eof": api.LegalCommentsEndOfFile}[s.LegalComments]; !ok {
		return o, fmt.Errorf("legalComments %q", s.LegalComments)
	}
	loaders := map[string]api.Loader{"js": api.LoaderJS, "jsx": api.LoaderJSX, "ts": api.LoaderTS, "tsx": api.LoaderTSX, "json": api.LoaderJSON, "css": api.LoaderCSS, "text": api.LoaderText, "file": api.LoaderFile, "empty": api.LoaderEmpty, "dataurl": api.LoaderDataURL}
	if len(s.Loader) > 0 {
		o.Loader = map[string]api.Loader{}
		for ext, name := range s.Loader {
			l, ok := loaders[name]
			if !ok {
				return o, fmt.Errorf("loader %q for %s", name, ext)
			}
			o.Loader[ext] = l
		}
	}
	// Alias targets that are relative paths are resolved from the project
	// root, whatever file imports them.
	if len(s.Alias) > 0 {
		o.Alias = map[string]string{}
		for from, to := range s.Alias {
			if strings.HasPrefix(to, "./") {
				to = filepath.Join(dir, to)
			}
			o.Alias[from] = to
		}
	}
	return o, nil
}

func formatMessages(msgs []api.Message) string {
	var b bytes.Buffer
	for _, m := range msgs {
		if m.Location != nil {
			fmt.Fprintf(&b, "%s:%d:%d: ", m.Location.File, m.Location.Line, m.Location.Column)
		}
		b.WriteString(m.Text)
		b.WriteString("\n")
	}
	return strings.TrimSpace(b.String())
}
