package main

import (
	"bytes"
	"context"
	"encoding/hex"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/northbeam/site/internal/assets"
	"github.com/northbeam/site/internal/config"
	"github.com/northbeam/site/internal/intl"
	"github.com/northbeam/site/internal/site"
	"github.com/northbeam/site/internal/sitebuild"
	"github.com/northbeam/site/internal/store"
	"github.com/northbeam/site/render"
)

// sources says where the content and the bundles come from: embedded in a
// production binary, or the project directory.
type sources struct {
	root     string
	embedded fs.FS // the prebuilt bundle, nil unless built with -tags prod
	// builder builds the project's bundles again and again (-dev); nil
	// builds them once. memo then remembers every render of the session:
	// a page whose bundle and payload did not change is not rendered again.
	builder *assets.Builder
	memo    *render.Memo
	// missing tells the dev loop of the strings renders lack (-dev).
	missing *missingSink
	// kept is what builds take from earlier ones: renders, parsed posts.
	kept kept
	// early is the bundle of the project's sources, built from the start
	// beside the rest of it (prebuild); nil builds it in buildSite.
	early chan bundleOrError
}

// kept is what a build takes from earlier builds.
type kept struct {
	// renders keeps the finished pages between starts (render.DiskCache,
	// under DATA_DIR); nil renders every page at every start.
	renders *render.DiskCache
	// parsed keeps the posts, case studies and people parsed by the
	// builds before (-dev); nil parses every file at every build.
	parsed *sitebuild.Parsed
	// collections, when not nil, are the posts, case studies, team,
	// pictures and dates a start loaded beside the bundles' build, for its
	// first build (sitebuild.Options.Collections).
	collections *sitebuild.Build
}

type bundleOrError struct {
	bundle *assets.Bundle
	err    error
}

// prebuild starts building the project's bundles, for buildSite to take.
func (s *sources) prebuild() {
	if s.embedded != nil {
		return
	}
	s.early = make(chan bundleOrError, 1)
	go func() {
		var b bundleOrError
		if s.builder != nil {
			b.bundle, b.err = s.builder.Build()
		} else {
			b.bundle, b.err = assets.Build(s.root)
		}
		s.early <- b
	}()
}

// projectSources are the sources of cfg's project directory, or those the
// binary embeds.
func projectSources(cfg config.Config) sources {
	return sources{root: absolute(cfg.Root), embedded: assets.Embedded()}
}

// content returns the content directory.
func (s sources) content() (fs.FS, error) {
	if s.embedded != nil {
		return fs.Sub(embeddedContent, "content")
	}
	return os.DirFS(filepath.Join(s.root, "content")), nil
}

// siteContent returns the content directory and its site.json.
func (s sources) siteContent() (fs.FS, *site.Info, error) {
	content, err := s.content()
	if err != nil {
		return nil, nil, err
	}
	info, err := site.Load(content, "site.json")
	if err != nil {
		return nil, nil, err
	}
	return content, info, nil
}

// dates writes dates and times in the site's languages, from the CLDR
// data of the project's node_modules, or the part of it a production
// binary embeds (internal/assets, Bundle.CLDR).
func (s sources) dates(info *site.Info) (*intl.Formatter, error) {
	cldr := os.DirFS(filepath.Join(s.root, "node_modules"))
	if s.embedded != nil {
		var err error
		if cldr, err = assets.ReadCLDR(s.embedded); err != nil {
			return nil, err
		}
	}
	return intl.Load(cldr, info.Languages)
}

// buildSite builds the site: from the embedded bundle and the pages its
// build rendered, or from the project's sources. No page is rendered yet
// (sitebuild.Options.Lazy): the caller renders them, or lets requests do.
func (s sources) buildSite(ctx context.Context, cfg config.Config, log *slog.Logger) (*sitebuild.Build, error) {
	content, err := s.content()
	if err != nil {
		return nil, err
	}
	if s.embedded == nil {
		build := assets.Build
		k := s.kept
		switch {
		case s.early != nil:
			// The collections load while the bundles build, which they do
			// not need (sitebuild.LoadCollections): both are most of a
			// restart's time to its first page.
			loaded := make(chan error, 1)
			go func() {
				var err error
				cldr := os.DirFS(filepath.Join(s.root, "node_modules"))
				k.collections, err = sitebuild.LoadCollections(content, cldr, siteOptions(cfg, s.kept, nil, nil, true))
				loaded <- err
			}()
			build = func(string) (*assets.Bundle, error) {
				b := <-s.early
				if err := <-loaded; b.err == nil && err != nil {
					return nil, err
				}
				return b.bundle, b.err
			}
		case s.builder != nil:
			build = func(string) (*assets.Bundle, error) { return s.builder.Build() }
		}
		bundle, err := build(s.root)
		if err != nil {
			return nil, err
		}
		return newSite(ctx, content, bundle, cfg, log, s.memo, k, nil, true, s.missing.tell)
	}
	bundle, err := assets.Read(s.embedded)
	if err != nil {
		return nil, err
	}
	memo, err := render.ReadMemoFS(s.embedded, memoFile)
	if err != nil {
		return nil, err
	}
	copies, err := fs.Sub(s.embedded, "img")
	if err != nil {
		return nil, err
	}
	return newSite(ctx, content, bundle, cfg, log, memo, s.kept, copies, true, nil)
}

// newSite builds the site with bundle, rendering every page unless lazy;
// memo, when not nil, holds pages already rendered with it, k what it
// takes from earlier builds, imageCopies the WebP copies of the
// content's pictures the build wrote, and missing, when not nil, hears of
// the strings renders lack (-dev).
func newSite(ctx context.Context, content fs.FS, bundle *assets.Bundle, cfg config.Config, log *slog.Logger, memo *render.Memo,
	k kept, imageCopies fs.FS, lazy bool, missing func([]render.MissingString)) (*sitebuild.Build, error) {
	if !lazy {
		engine, err := newEngine(bundle, log, memo, missing)
		if err != nil {
			return nil, err
		}
		return siteWith(ctx, content, bundle, engine, cfg, k, imageCopies, nil, false)
	}
	// The engine starts beside the content's loading: a lazy build renders
	// nothing before it is returned.
	var engine *render.Engine
	engineErr := make(chan error, 1)
	go func() {
		var err error
		engine, err = newEngine(bundle, log, memo, missing)
		engineErr <- err
	}()
	s, err := siteWith(ctx, content, bundle, nil, cfg, k, imageCopies, nil, true)
	if eerr := <-engineErr; err == nil {
		err = eerr
	}
	if err != nil {
		return nil, err
	}
	s.Engine = engine
	return s, nil
}

// newEngine starts the render engine of bundle's server bundle.
// missing, when not nil, is told the strings each render lacks.
func newEngine(bundle *assets.Bundle, log *slog.Logger, memo *render.Memo, missing func([]render.MissingString)) (*render.Engine, error) {
	return render.NewEngine(bundle.Server, render.Options{Runtimes: runtime.GOMAXPROCS(0), Logger: log, Memo: memo, SourceMap: bundle.ServerMap, Missing: missing,
		Strings: bundle.Strings})
}

// siteWith builds the site with bundle and its engine, as newSite, with
// the collections of same when not nil (sitebuild.Options.Collections).
func siteWith(ctx context.Context, content fs.FS, bundle *assets.Bundle, engine *render.Engine, cfg config.Config, k kept,
	imageCopies fs.FS, same *sitebuild.Build, lazy bool) (*sitebuild.Build, error) {
	return sitebuild.New(ctx, content, bundle, engine, siteOptions(cfg, k, imageCopies, same, lazy))
}

// siteOptions are the options of a build of the site (siteWith): same,
// or else k.collections, gives it its collections.
func siteOptions(cfg config.Config, k kept, imageCopies fs.FS, same *sitebuild.Build, lazy bool) sitebuild.Options {
	if same == nil {
		same = k.collections
	}
	return sitebuild.Options{
		BaseURL:             cfg.BaseURL,
		GAMeasurementID:     cfg.GAMeasurementID,
		ConsentHideFromBots: cfg.ConsentHideFromBots,
		Dev:                 cfg.Dev,
		RetentionMonths:     cfg.Retention,
		ImageCopies:         imageCopies,
		KeepImageCopies:     imageCopiesDir(cfg, imageCopies),
		Renders:             k.renders,
		Parsed:              k.parsed,
		Lazy:                lazy,
		Collections:         same,
	}
}

// openRenders opens the renders' cache under cfg's DATA_DIR, its keys
// salted with this program; without it (a folder that cannot be made)
// every page renders, and the log says why.
func openRenders(cfg config.Config, program func() ([]byte, error), log *slog.Logger) *render.DiskCache {
	salt, err := program()
	if err == nil {
		var c *render.DiskCache
		if c, err = render.OpenDiskCache(filepath.Join(cfg.DataDir, rendersDir), salt); err == nil {
			c.Log = log
			return c
		}
	}
	log.Warn("no renders' cache: every page renders", "err", err)
	return nil
}

// programSalt identifies the program whose renders' cache and content
// index a start reads: its Go build ID (render.ExecutableSum), or in a
// production binary (embedded, its bundles) the build ID of the program
// that built them (programFile), marked as a production binary's. The
// binary's own ID is a hash of its embedded content as well as its code,
// so that each new version, one post changed, would render and compress
// every page again at its first start; the builder's code is the binary's
// (docs/ARCHITECTURE.md, Rendering). A binary whose build wrote no ID uses
// its own.
func programSalt(embedded fs.FS) ([]byte, error) {
	if embedded != nil {
		if id, err := fs.ReadFile(embedded, programFile); err == nil && len(bytes.TrimSpace(id)) > 0 {
			return append([]byte("production binary built by "), bytes.TrimSpace(id)...), nil
		}
	}
	return render.ExecutableSum()
}

// rendersDir is the renders' cache folder, under DATA_DIR.
const rendersDir = "renders"

// imageCopiesDir is where a start from the project's sources keeps the
// WebP copies of the content's pictures it encodes, under DATA_DIR, and
// the next start reads them back rather than encode them again beside its
// prerender (docs/ARCHITECTURE.md, Starting); "" with the copies of a
// build (prebuilt).
func imageCopiesDir(cfg config.Config, prebuilt fs.FS) string {
	if prebuilt != nil {
		return ""
	}
	return filepath.Join(cfg.DataDir, "image-copies")
}

// indexFile is the content's index, under DATA_DIR: the posts as the last
// start parsed them (docs/ARCHITECTURE.md, Starting).
const indexFile = "content-index"

// openParsed returns what the start's build takes of the posts parsed by
// the starts before it (their index under cfg's DATA_DIR, made by this
// same program), in place of kept; without the program's build ID, kept.
// An index that cannot be read is said in the log and made anew.
func openParsed(cfg config.Config, program func() ([]byte, error), kept *sitebuild.Parsed, log *slog.Logger) *sitebuild.Parsed {
	sum, err := program()
	if err != nil {
		log.Warn("no content index: every post is parsed", "err", err)
		return kept
	}
	p, err := sitebuild.OpenParsed(filepath.Join(cfg.DataDir, indexFile), hex.EncodeToString(sum))
	if err != nil {
		log.Warn("the content index is unreadable: every post is parsed, and the index made anew", "err", err)
	}
	return p
}

// saveIndex writes the content's index for the next start, when the
// start's build parsed a post (or forgot one).
func saveIndex(p *sitebuild.Parsed, log *slog.Logger) {
	if err := p.SaveIndex(); err != nil {
		log.Warn("writing the content index", "err", err)
	}
}

// openStore opens and migrates the database cfg names, for a command:
// PostgreSQL when DATABASE_URL is set (waiting up to wait for it to
// answer), else the SQLite file in DATA_DIR.
func openStore(ctx context.Context, cfg config.Config, wait time.Duration) (*store.Store, error) {
	if cfg.DatabaseURL != "" {
		return store.OpenPostgres(ctx, cfg.DatabaseURL, wait)
	}
	return store.Open(ctx, config.SQLiteFile(cfg.DataDir))
}

func absolute(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	return abs
}
