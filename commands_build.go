package main

import (
	"context"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/northbeam/site/internal/assets"
	"github.com/northbeam/site/internal/config"
	"github.com/northbeam/site/render"
)

// memoFile holds, beside the bundles, the pages the build rendered
// (render.Memo.WriteTo); legacyMemoFile is where builds before its format
// wrote them, removed by a build so that no binary embeds both.
const (
	memoFile       = "renders.memo"
	legacyMemoFile = "renders.gob.gz"
)

// programFile names, beside the bundles, the program that made them: the
// Go build ID of `go run . build`, whose code is the binary's without its
// embedded files (programSalt).
const programFile = "program-id"

// buildCommand writes into -out what a production binary embeds: the
// bundles, every page rendered once with them, and the WebP copies of the
// content's pictures. It says what it encoded to report.
func buildCommand(args []string, getenv func(string) string, report io.Writer) error {
	fs := flag.NewFlagSet("build", flag.ContinueOnError)
	out := fs.String("out", "internal/assets/dist", "output directory")
	root := fs.String("root", ".", "project directory")
	keepCopies := fs.String("keep-copies", "", "folder where the pictures' WebP copies are kept between builds: each found there is taken rather than encoded again")
	if err := fs.Parse(args); err != nil {
		return err
	}
	// The renders of the last build in -out answer the pages that did not
	// change since: read before the new build replaces them.
	earlier, err := render.ReadMemoFS(os.DirFS(*out), memoFile)
	if err != nil {
		earlier = nil // unreadable (another version's): every page renders
	}
	b, err := assets.Build(absolute(*root))
	if err != nil {
		return err
	}
	if err := b.Write(*out); err != nil {
		return err
	}
	if err := writeProgramID(*out); err != nil {
		return err
	}
	// Render every page once with this bundle, so that the binary starts
	// without rendering them again: with the configuration in the
	// environment (the analytics ID and bot hiding reach the pages).
	cfg, err := config.Load(nil, getenv)
	if err != nil {
		return fmt.Errorf("configuration: %w", err)
	}
	cfg.Dev = false
	content, err := (sources{root: absolute(*root)}).content()
	if err != nil {
		return err
	}
	memo := render.NewMemo()
	if earlier != nil {
		memo.Seed(earlier)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	// Every page, on as many runtimes as there are cores (newEngine).
	started := time.Now()
	built, err := newSite(context.Background(), content, b, cfg, log, memo, kept{}, nil, false, nil)
	if err != nil {
		return err
	}
	rendered, remembered := built.Engine.Counts()
	fmt.Fprintf(report, "build: %d pages rendered on %d runtimes, %d taken from the last build, in %s\n", rendered, built.Engine.Size(), remembered,
		time.Since(started).Round(time.Millisecond))
	// The WebP copies of the content's pictures, which the binary serves
	// without encoding anything (internal/images).
	started = time.Now()
	if *keepCopies != "" {
		built.KeepImageCopiesIn(*keepCopies)
	}
	copies, err := built.WriteImageCopies(filepath.Join(*out, "img"), runtime.GOMAXPROCS(0))
	if err != nil {
		return err
	}
	var total int
	for _, c := range copies {
		total += c.Bytes
	}
	fmt.Fprintf(report, "build: %d picture copies, %d KB, encoded in %s\n", len(copies), total/1024, time.Since(started).Round(time.Millisecond))
	// Written beside, then renamed: the last build's memo, which earlier
	// reads its bodies from, is never overwritten while it is open.
	f, err := os.CreateTemp(*out, memoFile+".*")
	if err != nil {
		return err
	}
	if _, err := memo.WriteTo(f); err != nil {
		_ = f.Close()           // the write's error is the one to report
		_ = os.Remove(f.Name()) // half written
		return err
	}
	if err := f.Close(); err != nil {
		_ = os.Remove(f.Name())
		return err
	}
	if err := os.Rename(f.Name(), filepath.Join(*out, memoFile)); err != nil {
		return err
	}
	if err := os.Remove(filepath.Join(*out, legacyMemoFile)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}

// writeProgramID writes into out the Go build ID of the running program
// (programFile); without one, it removes the last build's, so that the
// binary salts with its own.
func writeProgramID(out string) error {
	p := filepath.Join(out, programFile)
	sum, err := render.ExecutableSum()
	if err != nil {
		if rerr := os.Remove(p); rerr != nil && !errors.Is(rerr, os.ErrNotExist) {
			return rerr
		}
		return nil
	}
	return os.WriteFile(p, []byte(hex.EncodeToString(sum)+"\n"), 0o644) //nolint:gosec // G306: embedded in the binary, not a secret
}
