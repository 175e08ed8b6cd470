package assets

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/evanw/esbuild/pkg/api"

	"github.com/northbeam/site/internal/intl"
	"github.com/northbeam/site/internal/site"
)

// URLPrefix is where the client files are served.
const URLPrefix = "/assets/"

// Bundle is the output of a build: the client files by name (relative to
// URLPrefix), the server bundle for goja, the manifest that ties pages
// and languages to their chunks, and the CLDR data the server writes the
// site's dates with.
type Bundle struct {
	Client map[string][]byte
	Server []byte
	// ServerMap is the server bundle's source map: nil in a bundle read
	// back without one.
	ServerMap []byte
	// Strings are every language's strings for the server bundle, a JSON
	// object by language code (serverStrings), which the render engine
	// gives it (render.Options.Strings): data beside the bundle, not in
	// it, so that a saved string builds nothing (Builder.WithStrings).
	Strings  []byte
	Manifest Manifest
	// CLDR is the Unicode CLDR data laid out as node_modules, which
	// internal/intl reads: the project's own in a build from the project,
	// the files the site's languages need (cldrFiles) in one read back.
	CLDR      fs.FS
	cldrFiles []string
}

// cldrDir holds the CLDR files in a written bundle.
const cldrDir = "cldr"

// serverStringsFile holds the server's strings (Bundle.Strings) in a
// written bundle.
const serverStringsFile = "strings.json"

// Build builds the bundles from the project in dir, as esbuild.config.mjs
// declares them.
func Build(dir string) (*Bundle, error) {
	b, err := NewBuilder(dir)
	if err != nil {
		return nil, err
	}
	defer b.Dispose()
	return b.Build()
}

// clientOutdir is where the client's and the staff's files are written,
// side by side (in memory: nothing is written to disk).
const clientOutdir = "dist/client"

// Builder builds the bundles again and again (the -dev loop): it holds one
// esbuild build context per bundle, whose Rebuild parses again only the
// files that changed. It reads esbuild.config.mjs, the site's languages,
// the string groups and the page table once: a change to one of them
// (ConfigFiles) needs a new Builder. The strings themselves are read at
// every build, and are in no bundle: WithStrings reads them alone.
type Builder struct {
	dir                   string
	cfg                   *Config
	client, server, staff *step
	mu                    sync.Mutex // one build at a time
}

// step is one bundle's build context and its last good result.
type step struct {
	ctx    api.BuildContext
	last   *api.BuildResult
	inputs map[string]bool // the files the last good result was built from, relative to the project
}

// build builds the bundle again unless none of its inputs is among changed
// (relative paths; nil: anything may have changed).
func (s *step) build(changed []string) api.BuildResult {
	if s.last != nil && changed != nil && !slices.ContainsFunc(changed, func(p string) bool { return s.inputs[p] }) {
		return *s.last
	}
	r := s.ctx.Rebuild()
	if len(r.Errors) == 0 {
		var mf struct {
			Inputs map[string]json.RawMessage `json:"inputs"`
		}
		if err := json.Unmarshal([]byte(r.Metafile), &mf); err == nil {
			s.last, s.inputs = &r, map[string]bool{}
			for in := range mf.Inputs {
				s.inputs[in] = true
			}
		}
	}
	return r
}

// NewBuilder reads the configuration of the project in dir and prepares
// its builds.
func NewBuilder(dir string) (*Builder, error) {
	cfg, err := LoadConfig(filepath.Join(dir, "esbuild.config.mjs"))
	if err != nil {
		return nil, err
	}
	b := &Builder{dir: dir, cfg: cfg, client: &step{}, server: &step{}, staff: &step{}}
	for _, step := range []struct {
		name    string
		options func(dir string) (api.BuildOptions, error)
		place   func(*api.BuildOptions)
		step    *step
	}{
		{"client", cfg.ClientOptions, func(o *api.BuildOptions) { o.Outdir = clientOutdir }, b.client},
		{"server", cfg.ServerOptions, func(o *api.BuildOptions) { o.Outfile = "dist/server.js" }, b.server},
		{"staff", cfg.StaffOptions, func(o *api.BuildOptions) { o.Outdir = clientOutdir }, b.staff},
	} {
		opts, err := step.options(dir)
		if err != nil {
			b.Dispose()
			return nil, fmt.Errorf("assets: %s: %w", step.name, err)
		}
		step.place(&opts)
		if step.name == "server" {
			// The server bundle's map, which turns a render error's
			// position into its TSX file and line (render, Error).
			opts.Sourcemap = api.SourceMapLinked
		}
		ctx, cerr := api.Context(opts)
		if cerr != nil {
			b.Dispose()
			return nil, fmt.Errorf("assets: %s: %s", step.name, formatMessages(cerr.Errors))
		}
		step.step.ctx = ctx
	}
	return b, nil
}

// Dispose frees the build contexts.
func (b *Builder) Dispose() {
	for _, s := range []*step{b.client, b.server, b.staff} {
		if s.ctx != nil {
			s.ctx.Dispose()
		}
	}
}

// Build builds the three bundles, side by side, from the files as they are
// now: those of which a file changed, when it is told which did (paths
// relative to the project); the others are as they were. A failure is a
// *BuildError.
func (b *Builder) Build(changed ...string) (*Bundle, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	strs, err := b.readStrings()
	if err != nil {
		return nil, err
	}
	var client, server, staff api.BuildResult
	var wg sync.WaitGroup
	for _, run := range []struct {
		step   *step
		result *api.BuildResult
	}{{b.client, &client}, {b.server, &server}, {b.staff, &staff}} {
		wg.Go(func() { *run.result = run.step.build(changed) })
	}
	wg.Wait()
	var failed []api.Message
	for _, r := range []api.BuildResult{client, server, staff} {
		failed = append(failed, r.Errors...)
	}
	if len(failed) > 0 {
		return nil, newBuildError(failed)
	}

	out := &Bundle{Client: map[string][]byte{}}
	root := filepath.Join(b.dir, clientOutdir)
	for _, f := range append(append([]api.OutputFile{}, client.OutputFiles...), staff.OutputFiles...) {
		rel, err := filepath.Rel(root, f.Path)
		if err != nil {
			return nil, fmt.Errorf("assets: %w", err)
		}
		name := filepath.ToSlash(rel)
		if _, clash := out.Client[name]; clash {
			return nil, fmt.Errorf("assets: the client and staff builds both write %s", name)
		}
		out.Client[name] = f.Contents
	}
	for _, f := range server.OutputFiles {
		switch {
		case strings.HasSuffix(f.Path, ".js.map"):
			out.ServerMap = f.Contents
		case strings.HasSuffix(f.Path, ".js"):
			out.Server = f.Contents
		}
	}
	if out.Server == nil {
		return nil, fmt.Errorf("assets: the server build produced no script")
	}
	if out.Manifest, err = manifest(client.Metafile, clientOutdir); err != nil {
		return nil, err
	}
	if err := out.addStrings(b.dir, b.cfg, strs); err != nil {
		return nil, err
	}
	if out.Manifest.Staff, err = staffManifest(staff.Metafile, clientOutdir); err != nil {
		return nil, err
	}
	if b.cfg.Site != "" {
		info, err := site.Load(os.DirFS(b.dir), b.cfg.Site)
		if err != nil {
			return nil, fmt.Errorf("assets: %w", err)
		}
		out.CLDR = os.DirFS(filepath.Join(b.dir, cldrNodeModules))
		if out.cldrFiles, err = intl.Sources(out.CLDR, info.Languages); err != nil {
			return nil, fmt.Errorf("assets: %w", err)
		}
	}
	return out, nil
}

// Reads reports whether the last build of a bundle read one of the files
// (paths relative to the project).
func (b *Builder) Reads(files ...string) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, s := range []*step{b.client, b.server, b.staff} {
		if s.last == nil || slices.ContainsFunc(files, func(p string) bool { return s.inputs[p] }) {
			return true
		}
	}
	return false
}

// readStrings reads the strings as they are now: the client's files of
// the string groups, and the server's.
func (b *Builder) readStrings() (*projectStrings, error) {
	out := &projectStrings{}
	if b.cfg.Client.Strings != "" {
		groups, err := LoadStringGroups(filepath.Join(b.dir, b.cfg.Client.Strings))
		if err != nil {
			return nil, err
		}
		if out.files, err = groups.Files(b.dir); err != nil {
			return nil, err
		}
	}
	if b.cfg.Site != "" {
		var err error
		if out.server, err = serverStrings(b.dir, b.cfg.Site); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// projectStrings are the strings of a build: the client's files (nil
// without string groups) and the server's.
type projectStrings struct {
	files  *StringFiles
	server []byte
}

// WithStrings returns old with the strings as they are now, read again
// without esbuild: the client's string files and the server's strings.
// No bundle holds a string, so a change to content/locales/ alone needs
// nothing more (docs/ARCHITECTURE.md, The dev loop).
func (b *Builder) WithStrings(old *Bundle) (*Bundle, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	strs, err := b.readStrings()
	if err != nil {
		return nil, err
	}
	out := *old
	// The files of old's strings are the build before's: KeepAssets serves
	// them to the pages that still load them.
	out.Client = maps.Clone(old.Client)
	maps.DeleteFunc(out.Client, func(name string, _ []byte) bool { return strings.HasPrefix(name, stringsDir) })
	if err := out.addStrings(b.dir, b.cfg, strs); err != nil {
		return nil, err
	}
	return &out, nil
}

// addStrings adds the modules of the string groups to the client's files,
// and says in the manifest where each is and which a page loads (as the
// page table says); and sets the server's strings.
func (b *Bundle) addStrings(dir string, cfg *Config, strs *projectStrings) error {
	b.Strings = strs.server
	files := strs.files
	if files == nil {
		return nil
	}
	b.Manifest.StringsBase = URLPrefix + files.Dir()
	b.Manifest.Strings = map[string]map[string]string{}
	for name, data := range files.Files {
		lang, group, _ := strings.Cut(strings.TrimSuffix(name, ".js"), "-")
		if b.Manifest.Strings[lang] == nil {
			b.Manifest.Strings[lang] = map[string]string{}
		}
		b.Client[files.Dir()+name] = data
		b.Manifest.Strings[lang][group] = URLPrefix + files.Dir() + name
	}
	table, err := cfg.PageTable(dir)
	if err != nil {
		return err
	}
	b.Manifest.PageStrings = map[string][]string{}
	for page := range b.Manifest.Pages {
		b.Manifest.PageStrings[page] = table.StringGroups(page)
	}
	return nil
}

// Write stores a bundle in dir (client/, server.js, manifest.json), for a
// production binary to embed.
func (b *Bundle) Write(dir string) error {
	if err := os.RemoveAll(dir); err != nil {
		return fmt.Errorf("assets: %w", err)
	}
	write := func(name string, data []byte) error {
		p := filepath.Join(dir, filepath.FromSlash(name))
		// The bundles every visitor downloads: nothing in them is secret.
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil { //nolint:gosec // G301: public files
			return err
		}
		return os.WriteFile(p, data, 0o644) //nolint:gosec // G306: public files
	}
	for name, data := range b.Client {
		if err := write("client/"+name, data); err != nil {
			return fmt.Errorf("assets: %w", err)
		}
	}
	mj, err := json.MarshalIndent(b.Manifest, "", "  ")
	if err != nil {
		return fmt.Errorf("assets: %w", err)
	}
	if err := write("server.js", b.Server); err != nil {
		return fmt.Errorf("assets: %w", err)
	}
	if err := write(serverStringsFile, b.Strings); err != nil {
		return fmt.Errorf("assets: %w", err)
	}
	if b.ServerMap != nil {
		if err := write("server.js.map", b.ServerMap); err != nil {
			return fmt.Errorf("assets: %w", err)
		}
	}
	if err := write("manifest.json", mj); err != nil {
		return fmt.Errorf("assets: %w", err)
	}
	for _, name := range b.cldrFiles {
		data, err := fs.ReadFile(b.CLDR, name)
		if err != nil {
			return fmt.Errorf("assets: %w", err)
		}
		if err := write(path.Join(cldrDir, name), data); err != nil {
			return fmt.Errorf("assets: %w", err)
		}
	}
	return nil
}

// Read loads a bundle written by Write.
func Read(fsys fs.FS) (*Bundle, error) {
	b := &Bundle{Client: map[string][]byte{}}
	mj, err := fs.ReadFile(fsys, "manifest.json")
	if err != nil {
		return nil, fmt.Errorf("assets: %w (was the binary built with npm run build:binary?)", err)
	}
	if err := json.Unmarshal(mj, &b.Manifest); err != nil {
		return nil, fmt.Errorf("assets: manifest.json: %w", err)
	}
	if b.Server, err = fs.ReadFile(fsys, "server.js"); err != nil {
		return nil, fmt.Errorf("assets: %w", err)
	}
	if b.Strings, err = fs.ReadFile(fsys, serverStringsFile); err != nil {
		return nil, fmt.Errorf("assets: %w", err)
	}
	if b.ServerMap, err = fs.ReadFile(fsys, "server.js.map"); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("assets: %w", err)
	}
	err = fs.WalkDir(fsys, "client", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(fsys, p)
		b.Client[strings.TrimPrefix(p, "client/")] = data
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("assets: %w", err)
	}
	if b.CLDR, err = ReadCLDR(fsys); err != nil {
		return nil, err
	}
	return b, nil
}

// ReadCLDR returns the CLDR data of a bundle written by Write, without
// reading the rest of it.
func ReadCLDR(fsys fs.FS) (fs.FS, error) {
	cldr, err := fs.Sub(fsys, cldrDir)
	if err != nil {
		return nil, fmt.Errorf("assets: %w", err)
	}
	return cldr, nil
}
