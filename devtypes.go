package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/northbeam/site/handlers"
	"github.com/northbeam/site/internal/config"
)

// The TypeScript checker of the -dev loop (docs/ARCHITECTURE.md, The dev
// loop): esbuild builds without checking types, so the project's own tsc
// (node_modules/typescript) runs beside the builds in watch mode, at a
// lower priority, and what it finds shows in the log and over the open
// pages (handlers.DevLoop.SetProblems), which still follow the builds.

// typeChecker runs tsc --watch on the project at root and shows what each
// pass finds (handlers.DevLoop.SetProblems), until ctx ends.
type typeChecker struct {
	root, cache string // the project; where tsc keeps its incremental state
	show        func(by string, problems []handlers.DevProblem)
	log         *slog.Logger
}

// tscExe returns the command that runs the project's tsc: its native
// executable when node says where the package keeps it (TypeScript 7), so
// that stopping it stops the checker; else node and the package's script.
func tscExe(ctx context.Context, root string) ([]string, error) {
	node, err := exec.LookPath("node")
	if err != nil {
		return nil, errors.New("node is not installed")
	}
	script := filepath.Join(root, "node_modules", "typescript", "bin", "tsc")
	if _, err := os.Stat(script); err != nil {
		return nil, errors.New("node_modules/typescript is not installed")
	}
	locate, err := filepath.Abs(filepath.Join(root, "node_modules", "typescript", "lib", "getExePath.js"))
	if _, serr := os.Stat(locate); err == nil && serr == nil {
		//nolint:gosec // G204: node runs the project's own TypeScript package
		out, err := exec.CommandContext(ctx, node, "--input-type=module", "-e",
			fmt.Sprintf("import p from %s; process.stdout.write(p())", strconv.Quote(locate))).Output()
		if exe := strings.TrimSpace(string(out)); err == nil && exe != "" {
			return []string{exe}, nil
		}
	}
	return []string{node, script}, nil
}

// run starts tsc and reads what it says until ctx ends.
func (c *typeChecker) run(ctx context.Context) {
	argv, err := tscExe(ctx, c.root)
	if err != nil {
		c.log.Warn("type checks off", "why", err.Error())
		return
	}
	// The checker waits behind the builds and the renders.
	if nice, err := exec.LookPath("nice"); err == nil {
		argv = append([]string{nice, "-n", "10"}, argv...)
	}
	if err := os.MkdirAll(c.cache, 0o750); err != nil {
		c.log.Warn("type checks off", "err", err)
		return
	}
	argv = append(argv, "--noEmit", "--watch", "--preserveWatchOutput", "--pretty", "false",
		"--incremental", "--tsBuildInfoFile", filepath.Join(c.cache, "tsconfig.tsbuildinfo"), "-p", "tsconfig.json")
	//nolint:gosec // G204: the project's own tsc, on the project's own tsconfig.json
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = c.root
	out, err := cmd.StdoutPipe()
	if err == nil {
		cmd.Stderr = cmd.Stdout
		err = cmd.Start()
	}
	if err != nil {
		c.log.Warn("type checks off", "err", err)
		return
	}
	c.read(out)
	if err := cmd.Wait(); err != nil && ctx.Err() == nil {
		c.log.Warn("type checks stopped", "err", err)
	}
}

// tscDiagnostic is a line of tsc's plain output: file(line,column): error TSnnnn: message.
var tscDiagnostic = regexp.MustCompile(`^(.+)\((\d+),(\d+)\): error (TS\d+): (.*)$`)

// tscDone ends a check: "Found 2 errors. Watching for file changes."
var tscDone = regexp.MustCompile(`Found (\d+) errors?\b`)

// read turns tsc's output into problems, a check at a time.
func (c *typeChecker) read(r io.Reader) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	var batch, shown []handlers.DevProblem
	started := time.Now()
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.Contains(line, "Starting compilation") || strings.Contains(line, "Starting incremental compilation"):
			batch, started = nil, time.Now()
		case tscDiagnostic.MatchString(line):
			m := tscDiagnostic.FindStringSubmatch(line)
			n, _ := strconv.Atoi(m[2])
			col, _ := strconv.Atoi(m[3])
			file := filepath.ToSlash(m[1])
			batch = append(batch, placed(c.root, handlers.DevProblem{Kind: "type", Message: m[4] + ": " + m[5], File: file, Line: n, Column: col}))
		case len(batch) > 0 && strings.HasPrefix(line, "  "):
			// A message of several lines.
			batch[len(batch)-1].Message += "\n" + strings.TrimSpace(line)
		case tscDone.MatchString(line):
			for _, p := range batch {
				if !slices.Contains(shown, p) {
					c.log.Error("type error", "problem", p.String(), "line", p.LineText)
				}
			}
			c.log.Info("types checked", "errors", len(batch), "in", time.Since(started).Round(time.Millisecond))
			shown = batch
			c.show("types", batch)
			batch = nil
		}
	}
}

// devCache is where -dev keeps what its tools find again faster on the
// next start: under DATA_DIR, which git ignores.
func devCache(cfg config.Config) string {
	dir, err := filepath.Abs(filepath.Join(cfg.DataDir, "dev"))
	if err != nil {
		return filepath.Join(cfg.DataDir, "dev")
	}
	return dir
}
