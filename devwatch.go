package main

import (
	"context"
	"fmt"
	"io/fs"
	"log/slog"
	"path/filepath"
	"strings"
	"time"

	"github.com/northbeam/site/handlers"
	"github.com/northbeam/site/internal/config"
)

// rebuildOnChange rebuilds the site when a file of the project changes
// (-dev) and swaps the new build in; a build that fails leaves the previous
// one serving.
func rebuildOnChange(ctx context.Context, src sources, cfg config.Config, srv *handlers.Server, log *slog.Logger) {
	src.watch(ctx, log, func() {
		s, err := src.buildSite(ctx, cfg, log)
		if err != nil {
			log.Error("rebuild failed; still serving the previous build", "err", err)
			return
		}
		s.KeepImageCopies(srv.Build())
		srv.Swap(s)
		log.Info("rebuilt")
		go warmImages(ctx, s, log)
	})
}

// watch calls rebuild when a file under frontend/ or content/ changes. It
// polls modification times: no dependency, and the same on every OS.
func (s sources) watch(ctx context.Context, log *slog.Logger, rebuild func()) {
	fingerprint := func() string {
		var b strings.Builder
		for _, dir := range []string{"frontend", "content", "esbuild.config.mjs"} {
			//nolint:gosec // G703: -dev watches the checkout its own configuration names (ROOT)
			_ = filepath.WalkDir(filepath.Join(s.root, dir), func(p string, d fs.DirEntry, err error) error {
				if err != nil {
					return nil
				}
				if info, err := d.Info(); err == nil && !d.IsDir() {
					fmt.Fprintf(&b, "%s %d %d\n", p, info.Size(), info.ModTime().UnixNano())
				}
				return nil
			})
		}
		return b.String()
	}
	last := fingerprint()
	tick := time.NewTicker(500 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			if now := fingerprint(); now != last {
				last = now
				log.Info("change detected; rebuilding")
				rebuild()
			}
		}
	}
}
