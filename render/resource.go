package render

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/base64"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/andybalholm/brotli"
)

// Resource is a response body that does not change while the process runs:
// a rendered page or a built asset, kept with its gzip and brotli variants,
// each with its own strong ETag, and served with conditional-request
// support. Its fields are read-only once NewResource or NewAnswer has
// returned it: the header values it serves are made from them then.
type Resource struct {
	ContentType  string
	CacheControl string
	Status       int
	// Body is the identity encoding; nil in a resource kept compressed
	// alone (NewCompressed), whose identity is made from Gzip when a
	// client asks for it (see Bytes).
	Body   []byte
	Gzip   []byte // nil when compression would not help
	Brotli []byte
	// ETag is the identity body's entity tag; GzipETag and BrotliETag are
	// those of the compressed bodies. Each encoding is a representation of
	// its own (RFC 9110, section 8.8.3): a cache holding the brotli body
	// must not have it confirmed for a client that asked for identity.
	// Empty tags are not sent (see NewAnswer).
	ETag       string
	GzipETag   string
	BrotliETag string

	fields headerFields // made from the fields above by NewResource
	// length is the identity body's length, known without it.
	length int
	// disk is where a resource read from the renders' cache serves its
	// bodies from (DiskCache.Get): the exported bodies are nil then.
	disk *diskBody
}

// NewResource compresses body and computes its ETags.
func NewResource(contentType, cacheControl string, status int, body []byte) *Resource {
	sum := sha256.Sum256(body)
	tag := base64.RawURLEncoding.EncodeToString(sum[:12])
	r := &Resource{
		ContentType:  contentType,
		CacheControl: cacheControl,
		Status:       status,
		Body:         body,
		ETag:         `"` + tag + `"`,
		length:       len(body),
	}
	if len(body) >= 512 && compressible(contentType) {
		r.Gzip = gzipBytes(body)
		r.Brotli = brotliBytes(body)
		// The encoding's name after the identity tag, as Apache's
		// mod_deflate does: distinct, and still telling which page it is.
		r.GzipETag = `"` + tag + `-gzip"`
		r.BrotliETag = `"` + tag + `-br"`
	}
	r.prepare()
	return r
}

// NewCompressed is NewResource for a page held for the life of a build:
// kept in its gzip and brotli encodings alone, its identity made from the
// gzip one for the rare client that accepts neither, so that memory holds
// each page once, compressed (docs/ARCHITECTURE.md, Rendering). A body
// that does not compress is kept as it is.
func NewCompressed(contentType, cacheControl string, status int, body []byte) *Resource {
	r := NewResource(contentType, cacheControl, status, body)
	if r.Gzip != nil {
		r.Body = nil
		r.prepare()
	}
	return r
}

// Bytes returns the identity body, decompressed from Gzip when the
// resource holds no Body, or read from its file (DiskCache.Get).
func (r *Resource) Bytes() []byte {
	if r.disk != nil {
		return r.disk.bytes()
	}
	if r.Body != nil || r.Gzip == nil {
		return r.Body
	}
	return gunzip(bytes.NewReader(r.Gzip))
}

func gunzip(src io.Reader) []byte {
	zr, err := gzip.NewReader(src)
	if err != nil {
		return nil // our own gzip: not reached
	}
	b, _ := io.ReadAll(zr)
	return b
}

// identityLen is the identity body's length.
func (r *Resource) identityLen() int {
	if r.Body != nil {
		return len(r.Body)
	}
	return r.length
}

// NewAnswer is NewResource for the answer to a request that changes state,
// such as a form post: the same body for every such request, compressed,
// never stored (Cache-Control: no-store) and without ETags, as there is
// nothing to revalidate.
func NewAnswer(contentType string, status int, body []byte) *Resource {
	r := NewResource(contentType, "no-store", status, body)
	r.ETag, r.GzipETag, r.BrotliETag = "", "", ""
	r.prepare()
	return r
}

func compressible(contentType string) bool {
	for _, p := range []string{"text/", "application/javascript", "application/json", "application/xml", "application/atom+xml", "image/svg+xml", "application/manifest+json"} {
		if strings.HasPrefix(contentType, p) {
			return true
		}
	}
	return false
}

func gzipBytes(b []byte) []byte {
	var buf bytes.Buffer
	zw, _ := gzipWriters.Get().(*gzip.Writer)
	if zw == nil {
		zw, _ = gzip.NewWriterLevel(&buf, gzip.BestCompression)
	} else {
		zw.Reset(&buf)
	}
	_, _ = zw.Write(b)
	_ = zw.Close()
	zw.Reset(nil) // the pool holds no page
	gzipWriters.Put(zw)
	return exact(buf.Bytes())
}

// gzipWriters and brotliWriters keep compressors between pages: a new one
// allocates and clears its tables (about 0.8 MB for gzip, 1.2 MB for
// brotli at a page's window), more work than compressing a page, and a
// start compresses every page and payload, in a loop the garbage
// collector then has to follow.
var (
	gzipWriters   sync.Pool
	brotliWriters [25]sync.Pool // by window (brotliBytes)
)

// exact copies b into a slice of its own length: a page is kept for the
// life of a build, and the buffer it was compressed into has grown by
// doubling, up to twice its length (at a thousand posts a language, a
// third of the heap).
func exact(b []byte) []byte { return append(make([]byte, 0, len(b)), b...) }

// brotliBytes compresses with a window no larger than the body needs (the
// default 4 MB window costs more to allocate and clear than compressing a
// page does), at quality 6: on the site's pages 1 % larger than quality 9
// and 38 % faster, which is most of the start's time.
func brotliBytes(b []byte) []byte {
	var buf bytes.Buffer
	window := 16
	for window < 24 && 1<<window < len(b) {
		window++
	}
	bw, _ := brotliWriters[window].Get().(*brotli.Writer)
	if bw == nil {
		bw = brotli.NewWriterOptions(&buf, brotli.WriterOptions{Quality: 6, LGWin: window})
	} else {
		bw.Reset(&buf)
	}
	_, _ = bw.Write(b)
	_ = bw.Close()
	bw.Reset(nil)
	brotliWriters[window].Put(bw)
	return exact(buf.Bytes())
}

// ServeHTTP answers with the best encoding the client accepts, or 304 when
// its cached copy is current. Its header fields were made once, by
// NewResource: it assigns them to the response's header map and allocates
// nothing.
func (r *Resource) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	if r.disk != nil {
		if again := r.disk.again.Load(); again != nil {
			again.ServeHTTP(w, req)
			return
		}
	}
	rep := &r.fields.identity
	if r.fields.encoded {
		switch acceptedEncoding(headerValue(req.Header, "Accept-Encoding")) {
		case "br":
			rep = &r.fields.brotli
		case "gzip":
			rep = &r.fields.gzip
		}
	}
	notModified := rep.etag != nil && r.Status == http.StatusOK && etagMatches(headerValue(req.Header, "If-None-Match"), rep.etag[0])
	body := rep.body
	if r.disk != nil && !notModified && req.Method != http.MethodHead {
		if hot := r.disk.hot.get(&r.disk.slots[rep.slot]); hot != nil {
			body = hot // a hot page: from memory (HotBodies)
		} else {
			// Read before a header is written: a file that is gone is
			// made again, and that resource answers.
			buf, ok := r.disk.read(rep)
			if !ok {
				r.disk.serveAgain(w, req)
				return
			}
			defer bodies.Put(buf)
			body = *buf
			r.disk.hot.asked(r.disk, rep.slot, body)
		}
	}
	h := w.Header()
	h["Content-Type"] = r.fields.contentType
	if r.fields.cacheControl != nil {
		h["Cache-Control"] = r.fields.cacheControl
	}
	if r.fields.encoded {
		if vary, ok := h["Vary"]; ok {
			h["Vary"] = append(vary, "Accept-Encoding")
		} else {
			h["Vary"] = varyAcceptEncoding
		}
	}
	if rep.etag != nil {
		h["Etag"] = rep.etag
		if notModified {
			w.WriteHeader(http.StatusNotModified)
			return
		}
	}
	if rep.encoding != nil {
		h["Content-Encoding"] = rep.encoding
	}
	h["Content-Length"] = rep.length
	if r.disk == nil && rep == &r.fields.identity && body == nil && r.Gzip != nil && req.Method != http.MethodHead {
		body = r.Bytes() // kept compressed alone (NewCompressed)
	}
	w.WriteHeader(r.Status)
	if req.Method != http.MethodHead {
		_, _ = w.Write(body)
	}
}

// headerValue is h.Get(key) for a key in canonical form, as net/http
// stores a request's fields, without canonicalizing it again.
func headerValue(h http.Header, key string) string {
	if v := h[key]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// varyAcceptEncoding is the Vary field of every resource with encodings.
var varyAcceptEncoding = field("Accept-Encoding")

// headerFields are a resource's header values, made once. They are shared
// by every response that carries them: nothing changes them in place
// (net/http only reads them, and Header.Add appends to a copy, as each has
// no room beyond its one value).
type headerFields struct {
	contentType, cacheControl []string
	identity, gzip, brotli    representation
	encoded                   bool // gzip and brotli are served
}

// representation is one encoding of a resource: its body and the fields
// that describe it.
type representation struct {
	body     []byte
	off, n   int64    // where the body is in its file (Resource.disk)
	slot     int      // where the body is kept once hot (diskBody.slots)
	fromGzip bool     // the identity body, made from the gzip one
	etag     []string // nil: no ETag is sent
	encoding []string // nil: identity
	length   []string
}

// field returns a header value that a response can share (see headerFields).
func field(v string) []string { return []string{v}[:1:1] }

// prepare makes the header fields from the resource's exported fields,
// which must not change afterwards. The fields' values share one array,
// and the lengths one string: a process holds thousands of resources for
// its life, made among the garbage of the renders, and each small object
// kept can keep a whole span of the heap in memory (docs/ARCHITECTURE.md,
// Rendering).
func (r *Resource) prepare() {
	values := make([]string, 0, 10)
	value := func(v string) []string { // nil for an empty value
		if v == "" {
			return nil
		}
		values = append(values, v) // within the capacity: never moves
		return values[len(values)-1 : len(values) : len(values)]
	}
	lengths := []int64{int64(r.identityLen())}
	if d := r.disk; d != nil && d.gzipLen > 0 {
		lengths = append(lengths, d.gzipLen, d.brotliLen)
	} else if d == nil && r.Gzip != nil {
		lengths = append(lengths, int64(len(r.Gzip)), int64(len(r.Brotli)))
	}
	length := numbers(lengths)
	rep := func(body []byte, length, etag, encoding string) representation {
		return representation{body: body, etag: value(etag), encoding: value(encoding), length: value(length)}
	}
	r.fields = headerFields{
		contentType:  value(known(r.ContentType)),
		cacheControl: value(known(r.CacheControl)),
		// Body nil: made on request (NewCompressed)
		identity: rep(r.Body, length[0], r.ETag, ""),
	}
	if r.fields.contentType == nil {
		r.fields.contentType = []string{""} // sent as it always was
	}
	if d := r.disk; d != nil {
		r.fields.identity.off, r.fields.identity.n = d.bodyOff, d.bodyLen
		if d.gzipLen > 0 {
			r.fields.encoded = true
			r.fields.identity.fromGzip = d.bodyLen == 0
			r.fields.gzip = rep(nil, length[1], r.GzipETag, "gzip")
			r.fields.gzip.off, r.fields.gzip.n = d.gzipOff, d.gzipLen
			r.fields.gzip.slot = 1
			r.fields.brotli = rep(nil, length[2], r.BrotliETag, "br")
			r.fields.brotli.off, r.fields.brotli.n = d.brotliOff, d.brotliLen
			r.fields.brotli.slot = 2
		}
		return
	}
	if r.Gzip != nil {
		r.fields.encoded = true
		r.fields.gzip = rep(r.Gzip, length[1], r.GzipETag, "gzip")
		r.fields.brotli = rep(r.Brotli, length[2], r.BrotliETag, "br")
	}
}

// numbers writes each of ns in decimal, the strings sharing one
// allocation.
func numbers(ns []int64) []string {
	var b []byte
	ends := make([]int, len(ns))
	for i, n := range ns {
		b = strconv.AppendInt(b, n, 10)
		ends[i] = len(b)
	}
	all := string(b)
	out := make([]string, len(ns))
	start := 0
	for i, end := range ends {
		out[i], start = all[start:end], end
	}
	return out
}

// known returns v, as the constant of the same value when it is one that
// thousands of resources hold (a resource read from its file decodes a
// string of its own).
func known(v string) string {
	switch v {
	case "text/html; charset=utf-8":
		return "text/html; charset=utf-8"
	case "application/json":
		return "application/json"
	case "no-cache":
		return "no-cache"
	case "no-store":
		return "no-store"
	}
	return v
}

// etagMatches reports whether an If-None-Match header names etag, weakly
// compared, or is "*".
func etagMatches(header, etag string) bool {
	for header != "" {
		var candidate string
		candidate, header, _ = strings.Cut(header, ",")
		candidate = strings.TrimPrefix(strings.TrimSpace(candidate), "W/")
		if candidate == etag || candidate == "*" {
			return true
		}
	}
	return false
}

// acceptedEncoding picks br, then gzip, from an Accept-Encoding header,
// honouring q=0 refusals; when a coding is named twice, the last one counts.
func acceptedEncoding(header string) string {
	br, gzip := false, false
	for header != "" {
		var part string
		part, header, _ = strings.Cut(header, ",")
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		switch {
		case strings.EqualFold(name, "br"):
			br = !refused(params)
		case strings.EqualFold(name, "gzip"):
			gzip = !refused(params)
		}
	}
	switch {
	case br:
		return "br"
	case gzip:
		return "gzip"
	}
	return ""
}

// refused reports whether a coding's parameters are q=0 (with up to three
// zero decimals, and any spaces).
func refused(params string) bool {
	var q [len("q=0.000")]byte
	n := 0
	for i := 0; i < len(params); i++ {
		if c := params[i]; c != ' ' && c != '\t' {
			if n == len(q) {
				return false
			}
			q[n] = c
			n++
		}
	}
	switch string(q[:n]) {
	case "q=0", "q=0.0", "q=0.00", "q=0.000":
		return true
	}
	return false
}
