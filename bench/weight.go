package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"maps"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
)

// Page weight: the gzip size of what a page loads (HTML, JavaScript, CSS).

// A page's stylesheets, and its one script: boot.ts, which starts the
// entry and preloads the page's modules after the first paint.
var (
	stylesheet = regexp.MustCompile(`<link rel="stylesheet" href="(/assets/[^"]+)"`)
	bootScript = regexp.MustCompile(`<script type="module" src="(/assets/[^"]+)" data-entry="(/assets/[^"]+)" data-preload="([^"]*)"`)
)

// staticImport finds a module's static imports: esbuild writes them with
// the public path (/assets/...), or relative (./...) without one.
var staticImport = regexp.MustCompile(`(?:from|import)\s*"((?:\./|/assets/)[^"]+\.js)"`)

// pageLoad is what a page loads: the gzip sizes of its JavaScript and CSS,
// and the files counted.
type pageLoad struct {
	js, css int
	seen    map[string]bool
}

// visit counts a file and, for a module, what it imports statically.
func (l *pageLoad) visit(base, u string) error {
	if l.seen[u] {
		return nil
	}
	l.seen[u] = true
	body, gz, err := fetchGzipBody(base + u)
	if err != nil {
		return err
	}
	if strings.HasSuffix(u, ".css") {
		l.css += len(gz)
		return nil
	}
	l.js += len(gz)
	dir := u[:strings.LastIndex(u, "/")+1]
	for _, m := range staticImport.FindAllSubmatch(body, -1) {
		dep := string(m[1])
		if !strings.HasPrefix(dep, "/") {
			dep = filepath.Clean(dir + dep)
		}
		if err := l.visit(base, dep); err != nil {
			return err
		}
	}
	return nil
}

// firstLoad sums the gzip sizes of the JavaScript and CSS a page loads
// to hydrate: its stylesheets, boot script, entry, preloads and their
// imports.
func firstLoad(base string, html []byte) (*pageLoad, error) {
	l := &pageLoad{seen: map[string]bool{}}
	var urls []string
	for _, m := range stylesheet.FindAllSubmatch(html, -1) {
		urls = append(urls, string(m[1]))
	}
	for _, m := range bootScript.FindAllSubmatch(html, -1) {
		urls = append(append(urls, string(m[1]), string(m[2])), strings.Fields(string(m[3]))...)
	}
	for _, u := range urls {
		if err := l.visit(base, u); err != nil {
			return nil, err
		}
	}
	return l, nil
}

// commonStrings finds a page's common strings among its preloads; the
// banner's strings are beside them.
var commonStrings = regexp.MustCompile(`(/assets/strings/[^ "]+/[a-z]+)-common\.js`)

// consentBanner finds the consent chunk among the entry's dynamic imports.
var consentBanner = regexp.MustCompile(`chunks/banner-[A-Za-z0-9]+\.js`)

// consentChunk returns the gzip size of the JavaScript the page's entry
// loads after hydration for the consent banner (its chunk and strings),
// beyond what the page has already loaded (l is not changed). Its
// stylesheet is not JavaScript.
func (l *pageLoad) consentChunk(base string, html []byte) (int, error) {
	boot := bootScript.FindSubmatch(html)
	if boot == nil {
		return 0, fmt.Errorf("no boot script in the page")
	}
	body, _, err := fetchGzipBody(base + string(boot[2]))
	if err != nil {
		return 0, err
	}
	name := consentBanner.Find(body)
	if name == nil {
		return 0, fmt.Errorf("the entry imports no consent chunk")
	}
	more := &pageLoad{seen: maps.Clone(l.seen)}
	if err := more.visit(base, "/assets/"+string(name)); err != nil {
		return 0, err
	}
	// And the banner's strings, beside the page's own: <lang>-consent.js.
	common := commonStrings.FindSubmatch(boot[3])
	if common == nil {
		return 0, fmt.Errorf("the page preloads no common strings")
	}
	if err := more.visit(base, string(common[1])+"-consent.js"); err != nil {
		return 0, err
	}
	return more.js, nil
}

func fetchGzip(url string) ([]byte, int, error) {
	body, gz, err := fetchGzipBody(url)
	return body, len(gz), err
}

// fetchGzipBody returns a URL's body and its gzip encoding as served.
func fetchGzipBody(url string) (body, gz []byte, err error) {
	body, gz, _, err = fetchGzipBodyHeader(url)
	return body, gz, err
}

// fetchGzipBodyHeader is fetchGzipBody with the response's header.
func fetchGzipBodyHeader(url string) (body, gz []byte, header http.Header, err error) {
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	req.Header.Set("Accept-Encoding", "gzip")
	res, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		return nil, nil, nil, err
	}
	header = res.Header
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, nil, nil, err
	}
	if res.Header.Get("Content-Encoding") != "gzip" {
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		_, _ = zw.Write(raw)
		_ = zw.Close()
		return raw, buf.Bytes(), header, nil
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		return nil, nil, nil, err
	}
	body, err = io.ReadAll(zr)
	return body, raw, header, err
}
