package markdown

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/alecthomas/chroma/v2"
)

func render(t *testing.T, src string, opts ...Option) (string, []Heading) {
	t.Helper()
	html, toc, err := New(opts...).Render([]byte(src))
	if err != nil {
		t.Fatalf("Render: %v", err)
	}
	return html, toc
}

func TestRender(t *testing.T) {
	tests := []struct {
		name    string
		src     string
		opts    []Option
		want    []string // substrings the HTML must hold
		notWant []string // substrings it must not hold
	}{
		{
			name: "heading ids are unique and link to themselves",
			src:  "## Why\n\n## Why\n\n## Why\n\n## Why 1\n",
			want: []string{
				`<h2 id="why"><a class="anchor" href="#why">Why</a></h2>`,
				`<h2 id="why-1"><a class="anchor" href="#why-1">Why</a></h2>`,
				`<h2 id="why-2">`,
				`<h2 id="why-1-1">`,
			},
		},
		{
			name: "heading ids keep accents and Arabic letters",
			src:  "## Étape 2 : décider\n\n## ما الذي نسلّمه؟\n\n## Größe & Maß\n",
			want: []string{`id="étape-2-décider"`, `id="ما-الذي-نسلّمه"`, `id="größe-maß"`},
		},
		{
			name: "a table sits in a box that scrolls on a narrow screen, by keyboard too, named by its heading",
			src:  "## Our stack\n\n| Need | Default |\n|---|:-:|\n| Jobs | Postgres |\n",
			want: []string{
				"<div class=\"table-scroll\" tabindex=\"0\" role=\"region\" aria-labelledby=\"our-stack\"><table>\n<thead>",
				`<th class="align-center">Default</th>`,
				"</tbody>\n</table></div>",
			},
		},
		{
			name: "a heading with only punctuation still gets an id",
			src:  "## ???\n\n## !!!\n",
			want: []string{`id="section"`, `id="section-1"`},
		},
		{
			name:    "a heading holding a link is not wrapped in another",
			src:     "## See [the docs](/docs)\n",
			want:    []string{`<h2 id="see-the-docs">See <a href="/docs">the docs</a></h2>`},
			notWant: []string{`class="anchor"`},
		},
		{
			name: "reserved ids are avoided",
			src:  "## Main\n",
			opts: []Option{WithReservedIDs("main")},
			want: []string{`id="main-1"`},
		},
		{
			name: "highlighted code uses classes, stays left to right and is focusable",
			src:  "```go\nfunc main() {}\n```\n",
			want: []string{
				`<pre class="chroma" dir="ltr" tabindex="0" data-lang="go"><code class="language-go">`,
				`<span class="kd">func</span>`,
				`<span class="nf">main</span>`,
				"</code></pre>\n",
			},
		},
		{
			name: "code without a known language has the same wrapper",
			src:  "```klingon\nqaStaH nuq?\n```\n\n```\nplain <b>\n```\n\n    indented\n",
			want: []string{
				`<pre class="chroma" dir="ltr" tabindex="0" data-lang="klingon"><code class="language-klingon">`,
				`<pre class="chroma" dir="ltr" tabindex="0"><code><span class="line"><span class="cl">plain &lt;b&gt;`,
				`<pre class="chroma" dir="ltr" tabindex="0"><code><span class="line"><span class="cl">indented`,
			},
		},
		{
			name:    "an info string cannot break out of the class attribute",
			src:     "```go\"onmouseover=\"alert(1)\nx\n```\n",
			want:    []string{`<pre class="chroma" dir="ltr" tabindex="0"><code>`},
			notWant: []string{"onmouseover"},
		},
		{
			name: "inline code is left to right",
			src:  "Lancez `go test ./...` maintenant.\n",
			want: []string{`<code dir="ltr">go test ./...</code>`},
		},
		{
			name: "external links open safely in a new tab",
			src:  "[Go](https://go.dev/doc) and <https://example.org/x> and https://bare.example.com/y\n",
			want: []string{
				`<a href="https://go.dev/doc" rel="noopener noreferrer" target="_blank">Go</a>`,
				`<a href="https://example.org/x" rel="noopener noreferrer" target="_blank">https://example.org/x</a>`,
				`<a href="https://bare.example.com/y" rel="noopener noreferrer" target="_blank">https://bare.example.com/y</a>`,
			},
		},
		{
			name: "internal, relative and mail links stay in the tab",
			src:  "[a](/fr/blog) [b](#top) [c](https://northbeam.dev/x) [d](https://WWW.Northbeam.dev/y) [e](mailto:hello@northbeam.dev) hello@northbeam.dev\n",
			opts: []Option{WithInternalHosts("northbeam.dev")},
			want: []string{
				`<a href="/fr/blog">a</a>`,
				`<a href="#top">b</a>`,
				`<a href="https://northbeam.dev/x">c</a>`,
				`<a href="https://WWW.Northbeam.dev/y">d</a>`,
				`<a href="mailto:hello@northbeam.dev">e</a>`,
				`<a href="mailto:hello@northbeam.dev">hello@northbeam.dev</a>`,
			},
			notWant: []string{"target=", "noopener"},
		},
		{
			name:    "dangerous link schemes are dropped",
			src:     "[x](javascript:alert(1))\n",
			notWant: []string{"javascript:"},
		},
		{
			name: "images load lazily and take their size from the title",
			src:  "![A chart](/img/c.png \"=800x450\")\n\n![Team](/img/t.jpg \"Our team =1200x630\")\n\n![Logo](/img/l.svg \"Logo\")\n",
			want: []string{
				`<img src="/img/c.png" alt="A chart" loading="lazy" decoding="async" width="800" height="450">`,
				`<img src="/img/t.jpg" alt="Team" title="Our team" loading="lazy" decoding="async" width="1200" height="630">`,
				`<img src="/img/l.svg" alt="Logo" title="Logo" loading="lazy" decoding="async">`,
			},
		},
		{
			name: "raw HTML is shown as text, comments dropped",
			src:  "<script>alert(1)</script>\n\nHello <b onclick=\"x()\">you</b> <!-- note -->\n\n<!--\nhidden\n-->\n\n<div>\nblock\n</div>\n",
			want: []string{
				`<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>`,
				`Hello &lt;b onclick=&quot;x()&quot;&gt;you&lt;/b&gt;`,
				`<p>&lt;div&gt;`,
			},
			notWant: []string{"<script", "<b ", "<div", "hidden", "note", "<!--"},
		},
		{
			name: "GitHub-flavoured Markdown",
			src:  "| Left | Centre | Right | None |\n|:-----|:------:|------:|------|\n| a | b | c | d |\n\n~~old~~\n\n- [x] done\n- [ ] to do\n",
			want: []string{
				`<th class="align-start">Left</th>`,
				`<th class="align-center">Centre</th>`,
				`<td class="align-end">c</td>`,
				`<td>d</td>`,
				`<del>old</del>`,
				`<input checked="" disabled="" type="checkbox"> done`,
			},
		},
	}
	styleAttr := regexp.MustCompile(`\sstyle=`)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			html, _ := render(t, tt.src, tt.opts...)
			for _, w := range tt.want {
				if !strings.Contains(html, w) {
					t.Errorf("HTML lacks %q\nHTML:\n%s", w, html)
				}
			}
			for _, nw := range tt.notWant {
				if strings.Contains(html, nw) {
					t.Errorf("HTML holds %q\nHTML:\n%s", nw, html)
				}
			}
			if styleAttr.MatchString(html) {
				t.Errorf("HTML has a style attribute:\n%s", html)
			}
		})
	}
}

func TestEveryPreIsLeftToRight(t *testing.T) {
	src := "```yaml\na: 1\n```\n\n```\nx\n```\n\n    y\n\n```nope\nz\n```\n\n> ```go\n> var q int\n> ```\n"
	html, _ := render(t, src)
	pres := regexp.MustCompile(`<pre[^>]*>`).FindAllString(html, -1)
	if len(pres) != 5 {
		t.Fatalf("found %d <pre>, want 5:\n%s", len(pres), html)
	}
	for _, pre := range pres {
		if !strings.Contains(pre, ` dir="ltr"`) {
			t.Errorf("%s has no dir=\"ltr\"", pre)
		}
	}
}

func TestTableOfContents(t *testing.T) {
	src := "# Title\n\nIntro.\n\n## First *part*\n\n### With `code`\n\n#### Too deep\n\n## First part\n\n## لماذا الآن؟\n"
	_, toc := render(t, src)
	want := []Heading{
		{ID: "first-part", Text: "First part", Level: 2},
		{ID: "with-code", Text: "With code", Level: 3},
		{ID: "first-part-1", Text: "First part", Level: 2},
		{ID: "لماذا-الآن", Text: "لماذا الآن؟", Level: 2},
	}
	if len(toc) != len(want) {
		t.Fatalf("TOC = %+v, want %+v", toc, want)
	}
	for i := range want {
		if toc[i] != want[i] {
			t.Errorf("TOC[%d] = %+v, want %+v", i, toc[i], want[i])
		}
	}
}

func TestSlug(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Hello, World!", "hello-world"},
		{"  spaces   around  ", "spaces-around"},
		{"Qu'est-ce qu'un MVP ?", "qu-est-ce-qu-un-mvp"},
		{"Qu’est-ce qu’un MVP ?", "qu-est-ce-qu-un-mvp"}, // typographic apostrophes, as the French content writes them
		{"Étape 2 : décider", "étape-2-décider"},
		{"Über Größe", "über-größe"},
		{"ما الذي نسلّمه؟", "ما-الذي-نسلّمه"},
		{"العـــربية", "العربية"}, // tatweel dropped
		{"Go 1.26 & YAML", "go-1-26-yaml"},
		{"—", ""},
	}
	for _, tt := range tests {
		if got := Slug(tt.in); got != tt.want {
			t.Errorf("Slug(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestCountWords(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want int
	}{
		{"empty", "", 0},
		{"plain English", "The quick brown fox jumps over the lazy dog.", 9},
		{"markup is not counted", "**Bold** and _italic_ with [a link](https://example.com/a/long/path) and ![an image](/x.png).", 7},
		{"French elisions and hyphens", "L'équipe a livré l'API — enfin ! C'est-à-dire : aujourd'hui.", 7},
		{"German compounds", "Die Plattformteam-Steuer ist keine Naturkonstante.", 5},
		{"Arabic", "تبدأ الرحلة بفهم المشكلة قبل كتابة أي سطر من الشيفرة.", 10},
		{"punctuation alone is no word", "one - two -- three • four", 4},
		{"headings, lists and tables count", "## Two words\n\n- item one\n- item two\n\n| a b | c |\n|---|---|\n| d | e f |\n", 12},
		{"code counts", "Run this:\n\n```sh\ngo test ./...\n```\n", 4},
		{"numbers are words", "In 2026 we shipped 42 releases.", 6},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := CountWords([]byte(tt.src)); got != tt.want {
				t.Errorf("CountWords = %d, want %d", got, tt.want)
			}
		})
	}
}

func TestConvertCountsWords(t *testing.T) {
	doc, err := New().Convert([]byte("## A heading\n\nSome body text here.\n"))
	if err != nil {
		t.Fatal(err)
	}
	if doc.Words != 6 {
		t.Errorf("Words = %d, want 6", doc.Words)
	}
}

func TestReadingMinutes(t *testing.T) {
	tests := []struct{ words, want int }{
		{0, 1}, {1, 1}, {219, 1}, {220, 1}, {221, 2}, {440, 2}, {441, 3}, {1000, 5}, {2200, 10},
	}
	for _, tt := range tests {
		if got := ReadingMinutes(tt.words); got != tt.want {
			t.Errorf("ReadingMinutes(%d) = %d, want %d", tt.words, got, tt.want)
		}
	}
}

func TestRenderConcurrently(t *testing.T) {
	r := New()
	src := []byte("## Title\n\n## Title\n\n```go\nvar x = 1\n```\n")
	want, _, err := r.Render(src)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 20 {
				got, _, err := r.Render(src)
				if err != nil || got != want {
					t.Errorf("concurrent render differs: %v\n%s", err, got)
					return
				}
			}
		})
	}
	wg.Wait()
}

func TestHighlightCSS(t *testing.T) {
	css := HighlightCSS()
	for _, w := range []string{
		".chroma { color: #1f2328; background-color: #f6f8fa; }",
		"@media (prefers-color-scheme: dark) {\n.chroma { color: #e6edf3; background-color: #0d1117; }",
		".chroma .kd",
		".chroma .nf",
		".chroma .s",
		".chroma .c1",
	} {
		if !strings.Contains(css, w) {
			t.Errorf("CSS lacks %q:\n%s", w, css)
		}
	}
	if strings.Count(css, "{") != strings.Count(css, "}") {
		t.Errorf("unbalanced braces:\n%s", css)
	}
	if strings.Contains(css, "left") || strings.Contains(css, "right") {
		t.Errorf("CSS uses physical directions:\n%s", css)
	}
	if got := ThemeCSS(LightTheme(), DarkTheme(), "[data-theme=dark]"); !strings.Contains(got, "[data-theme=dark] {\n") {
		t.Errorf("ThemeCSS ignores the wrapper:\n%s", got)
	}
}

// TestThemeContrast keeps every token colour at WCAG AA contrast (4.5:1)
// against the background it is drawn on, in both themes.
func TestThemeContrast(t *testing.T) {
	for name, theme := range map[string]Theme{"light": LightTheme(), "dark": DarkTheme()} {
		base := theme.style.Get(chroma.Background)
		text, page := base.Colour.String(), base.Background.String()
		if r := contrast(text, page); r < 4.5 {
			t.Errorf("%s: text %s on %s has contrast %.2f", name, text, page, r)
		}
		for class, d := range theme.rules() {
			fg, bg := d.color, d.background
			if fg == "" {
				fg = text
			}
			if bg == "" {
				bg = page
			}
			if r := contrast(fg, bg); r < 4.5 {
				t.Errorf("%s: .%s %s on %s has contrast %.2f, want at least 4.5", name, class, fg, bg, r)
			}
		}
	}
}

func contrast(a, b string) float64 {
	la, lb := luminance(a), luminance(b)
	return (math.Max(la, lb) + 0.05) / (math.Min(la, lb) + 0.05)
}

func luminance(hex string) float64 {
	v, err := strconv.ParseUint(strings.TrimPrefix(hex, "#"), 16, 32)
	if err != nil {
		panic(err)
	}
	channel := func(c uint64) float64 {
		s := float64(c) / 255
		if s <= 0.03928 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	return 0.2126*channel(v>>16&0xff) + 0.7152*channel(v>>8&0xff) + 0.0722*channel(v&0xff)
}

// TestWithImages: each image needs alternative text, a size and a file the
// resolver knows; a good one is pointed to the resolver's address and, when
// the file has WebP copies, offers them in a <picture> with the file as the
// fallback, keeping its size and lazy loading.
func TestWithImages(t *testing.T) {
	var asked []string
	r := New(WithImages(func(src string, width, height int) (ImageFile, error) {
		asked = append(asked, fmt.Sprintf("%s %dx%d", src, width, height))
		switch src {
		case "/img/a.png":
			return ImageFile{Src: "/img/0123/a.png", WebP: "/img/4567/a-400.webp 400w, /img/4567/a-800.webp 800w", Sizes: "(min-width: 50rem) 44rem, 100vw"}, nil
		case "/img/anim.gif":
			return ImageFile{Src: "/img/89ab/anim.gif"}, nil
		}
		return ImageFile{}, errors.New("no such image")
	}))
	doc, err := r.Convert([]byte("![A chart & a <title>](/img/a.png \"=800x450\")\n\n![An animation](/img/anim.gif \"=40x40\")\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := `<picture><source type="image/webp" srcset="/img/4567/a-400.webp 400w, /img/4567/a-800.webp 800w" sizes="(min-width: 50rem) 44rem, 100vw">` +
		`<img src="/img/0123/a.png" alt="A chart &amp; a &lt;title&gt;" loading="lazy" decoding="async" width="800" height="450"></picture>`
	if !strings.Contains(doc.HTML, want) {
		t.Errorf("the image with copies:\n%s\nwant\n%s", doc.HTML, want)
	}
	if want := `<img src="/img/89ab/anim.gif" alt="An animation" loading="lazy" decoding="async" width="40" height="40">`; !strings.Contains(doc.HTML, want) || strings.Count(doc.HTML, "<picture>") != 1 {
		t.Errorf("the image without copies is not a plain <img>:\n%s", doc.HTML)
	}
	if fmt.Sprint(asked) != "[/img/a.png 800x450 /img/anim.gif 40x40]" {
		t.Errorf("the resolver was asked %v", asked)
	}
	_, err = r.Convert([]byte("![](/img/a.png \"=800x450\")\n\n![B](/img/b.png)\n"))
	for _, want := range []string{`"/img/a.png": no alternative text`, `"/img/b.png": no size`, `"/img/b.png": no such image`} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v lacks %s", err, want)
		}
	}
}

// TestOutlineThenHTMLIsConvert: a start reads a post's outline and renders
// its HTML later; the two give what Convert gives at once, the same
// mistakes included.
func TestOutlineThenHTMLIsConvert(t *testing.T) {
	r := New(WithImages(func(src string, width, height int) (ImageFile, error) {
		if src != "/img/a.png" {
			return ImageFile{}, errors.New("no such image")
		}
		return ImageFile{Src: "/img/0123/a.png"}, nil
	}), WithReservedIDs("main"))
	src := []byte("## Main\n\nSome words, and a picture: ![A chart](/img/a.png \"=800x450\")\n\n### Code\n\n```go\nfunc main() { println(\"hi\") }\n```\n")
	whole, err := r.Convert(src)
	if err != nil {
		t.Fatal(err)
	}
	outline, err := r.Outline(src)
	if err != nil {
		t.Fatal(err)
	}
	if outline.HTML != "" || fmt.Sprint(outline.TOC) != fmt.Sprint(whole.TOC) || outline.Words != whole.Words {
		t.Errorf("outline = %+v, want the TOC %v and %d words of Convert, without HTML", outline, whole.TOC, whole.Words)
	}
	html, err := r.HTML(src)
	if err != nil || html != whole.HTML {
		t.Errorf("HTML = %q, %v; want Convert's %q", html, err, whole.HTML)
	}
	bad := []byte("![](/img/b.png)\n")
	_, convertErr := r.Convert(bad)
	_, outlineErr := r.Outline(bad)
	if convertErr == nil || outlineErr == nil || convertErr.Error() != outlineErr.Error() {
		t.Errorf("Outline's mistakes %v, want Convert's %v", outlineErr, convertErr)
	}
}
