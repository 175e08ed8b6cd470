package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/northbeam/site/handlers"
	"github.com/northbeam/site/internal/assets"
)

// The floors: what the stack costs before any of the site's own code.

// startFloor starts the bench itself again, placed as the site is, as a
// bare net/http server answering every request with body and header, the
// bytes and headers the site sent for the cached page.
func startFloor(dir string, body []byte, header http.Header, p placement, timeouts bool) (url string, stop func(), err error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", nil, err
	}
	h := header.Clone()
	h.Del("Date") // net/http writes its own, as it does for the site
	hj, err := json.Marshal(h)
	if err != nil {
		return "", nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, "body"), body, 0o644); err != nil {
		return "", nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, "header.json"), hj, 0o644); err != nil {
		return "", nil, err
	}
	self, err := os.Executable()
	if err != nil {
		return "", nil, err
	}
	addr := freeAddr()
	cmd := pinned(p.server, self, "-serve-floor", dir, "-floor-addr", addr, "-floor-timeouts="+strconv.FormatBool(timeouts))
	cmd.Env = append(os.Environ(), "GOMAXPROCS="+strconv.Itoa(p.workers))
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return "", nil, err
	}
	stop = func() { _ = cmd.Process.Kill(); _, _ = cmd.Process.Wait() }
	url = "http://" + addr + "/"
	if err := waitReady(url); err != nil {
		stop()
		return "", nil, err
	}
	serverPID[url] = cmd.Process.Pid
	return url, stop, nil
}

// floorServer is the bare server startFloor runs: no router, no
// middleware, no log; the header map is assigned, not built.
func floorServer(dir, addr string, timeouts bool) error {
	body, err := os.ReadFile(filepath.Join(dir, "body"))
	if err != nil {
		return err
	}
	hj, err := os.ReadFile(filepath.Join(dir, "header.json"))
	if err != nil {
		return err
	}
	var header http.Header
	if err := json.Unmarshal(hj, &header); err != nil {
		return err
	}
	handler := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		h := w.Header()
		for k, v := range header {
			h[k] = v
		}
		_, _ = w.Write(body)
	})
	if timeouts {
		srv := handlers.HTTPServer(handler)
		srv.Addr = addr
		return srv.ListenAndServe()
	}
	return http.ListenAndServe(addr, handler) //nolint:gosec // G114: the floor with net/http's defaults, on purpose
}

// libraryFloor bundles, minified and tree-shaken as the client bundle is,
// only what the site imports from the libraries the stack fixes, and
// returns its gzip size: the part of the JavaScript budget no page code
// can win back.
func libraryFloor(root string) (int, error) {
	entry := `
import { hydrateRoot } from "react-dom/client";
import { BrowserRouter, Link, NavLink, Route, Routes, useLocation, useNavigate } from "react-router-dom";
import i18next from "i18next";
import { I18nextProvider, initReactI18next, useTranslation } from "react-i18next";
import * as CookieConsent from "vanilla-cookieconsent";
window.floor = [hydrateRoot, BrowserRouter, Link, NavLink, Route, Routes, useLocation, useNavigate,
  i18next, I18nextProvider, initReactI18next, useTranslation, CookieConsent];
`
	cfg, err := assets.LoadConfig(filepath.Join(root, "esbuild.config.mjs"))
	if err != nil {
		return 0, err
	}
	// The client bundle's own options (minify, target, defines, react-router's
	// production build), with this entry in place of the site's, unsplit.
	opts, err := cfg.ClientOptions(root)
	if err != nil {
		return 0, err
	}
	opts.EntryPoints = nil
	opts.Stdin = &api.StdinOptions{Contents: entry, ResolveDir: root, Loader: api.LoaderJS}
	opts.Splitting = false
	opts.Metafile = false
	res := api.Build(opts)
	if len(res.Errors) > 0 {
		msgs := make([]string, len(res.Errors))
		for i, m := range res.Errors {
			msgs[i] = m.Text
		}
		return 0, fmt.Errorf("library floor: %s", strings.Join(msgs, "; "))
	}
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	for _, f := range res.OutputFiles {
		_, _ = zw.Write(f.Contents)
	}
	_ = zw.Close()
	return buf.Len(), nil
}
