package render

import (
	"context"
	"log/slog"
	"strconv"
	"strings"
	"sync"

	"github.com/dop251/goja"
	nodeurl "github.com/dop251/goja_nodejs/url"
	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
)

// installShims gives a runtime what the server bundle needs from a browser
// and goja lacks: console, URL and URLSearchParams, and Intl.PluralRules.
func installShims(vm *goja.Runtime, log *slog.Logger, plurals *pluralRules) error {
	installConsole(vm, log)
	installURL(vm)
	return installPluralRules(vm, plurals)
}

// installConsole routes console calls to the log. Without a console,
// i18next's logger throws inside a render and React silently renders the
// Suspense fallback instead of the page.
func installConsole(vm *goja.Runtime, log *slog.Logger) {
	con := vm.NewObject()
	for name, level := range map[string]slog.Level{
		"debug": slog.LevelDebug, "log": slog.LevelDebug, "info": slog.LevelInfo,
		"warn": slog.LevelWarn, "error": slog.LevelError, "trace": slog.LevelDebug,
	} {
		_ = con.Set(name, func(c goja.FunctionCall) goja.Value {
			parts := make([]string, len(c.Arguments))
			for i, a := range c.Arguments {
				parts[i] = a.String()
			}
			log.Log(context.Background(), level, "js console", "text", strings.Join(parts, " "))
			return goja.Undefined()
		})
	}
	_ = vm.Set("console", con)
}

// installURL sets the WHATWG URL and URLSearchParams of goja_nodejs, which
// react-router touches at load, without installing a global require.
func installURL(vm *goja.Runtime) {
	module := vm.NewObject()
	exports := vm.NewObject()
	_ = module.Set("exports", exports)
	nodeurl.Require(vm, module)
	_ = vm.Set("URL", exports.Get("URL"))
	_ = vm.Set("URLSearchParams", exports.Get("URLSearchParams"))
}

// intlShim is the part of Intl that i18next uses: PluralRules, backed by
// Go's CLDR plural rules (Arabic has six categories). Dates and numbers
// are formatted on the Go side; there is deliberately no Intl.DateTimeFormat.
const intlShim = `(function (g) {
  var Intl = g.Intl || (g.Intl = {});
  function PluralRules(locales, opts) {
    if (!(this instanceof PluralRules)) throw new TypeError("Constructor Intl.PluralRules requires 'new'");
    var loc = Array.isArray(locales) ? locales[0] : locales;
    this._type = (opts && opts.type) || "cardinal";
    this._loc = __pluralLocale(loc === undefined ? "en" : String(loc));
  }
  PluralRules.prototype.select = function (n) { return __pluralSelect(this._loc, this._type === "ordinal", Number(n)); };
  PluralRules.prototype.resolvedOptions = function () {
    return { locale: this._loc, type: this._type, pluralCategories: __pluralCategories(this._loc, this._type === "ordinal").slice() };
  };
  PluralRules.supportedLocalesOf = function (l) { return [].concat(l || []); };
  Intl.PluralRules = PluralRules;
  Intl.getCanonicalLocales = function (l) { return [].concat(l || []).map(function (x) { return __pluralLocale(String(x)); }); };
})(globalThis);`

func installPluralRules(vm *goja.Runtime, p *pluralRules) error {
	parse := func(s string) language.Tag {
		tag, err := language.Parse(s)
		if err != nil {
			panic(vm.NewTypeError("Incorrect locale information provided: %s", s))
		}
		return tag
	}
	_ = vm.Set("__pluralLocale", func(s string) string { return parse(s).String() })
	_ = vm.Set("__pluralSelect", func(loc string, ordinal bool, n float64) string {
		return p.selectForm(parse(loc), ordinal, n)
	})
	_ = vm.Set("__pluralCategories", func(loc string, ordinal bool) []string {
		return p.categories(parse(loc), ordinal)
	})
	_, err := vm.RunString(intlShim)
	return err
}

// pluralRules answers plural questions from CLDR data; the categories of a
// locale are computed once and shared by all runtimes.
type pluralRules struct {
	cache sync.Map // "tag/ordinal" -> []string
}

var formNames = map[plural.Form]string{
	plural.Other: "other", plural.Zero: "zero", plural.One: "one",
	plural.Two: "two", plural.Few: "few", plural.Many: "many",
}

func (p *pluralRules) selectForm(tag language.Tag, ordinal bool, n float64) string {
	rules := plural.Cardinal
	if ordinal {
		rules = plural.Ordinal
	}
	i, v, w, f, t := operands(n)
	return formNames[rules.MatchPlural(tag, i, v, w, f, t)]
}

// categories lists the forms a locale uses, in CLDR order, found by asking
// for enough sample numbers to meet every rule.
func (p *pluralRules) categories(tag language.Tag, ordinal bool) []string {
	key := tag.String() + "/" + strconv.FormatBool(ordinal)
	if v, ok := p.cache.Load(key); ok {
		return v.([]string)
	}
	seen := map[string]bool{}
	for n := 0; n <= 1200; n++ {
		seen[p.selectForm(tag, ordinal, float64(n))] = true
	}
	for _, d := range []float64{0.1, 0.5, 1.5, 2.5, 1.25, 10.5, 100.5, 1e6} {
		seen[p.selectForm(tag, ordinal, d)] = true
	}
	var out []string
	for _, c := range []string{"zero", "one", "two", "few", "many", "other"} {
		if seen[c] {
			out = append(out, c)
		}
	}
	p.cache.Store(key, out)
	return out
}

// operands computes CLDR's plural operands of n: integer digits i, number
// of visible fraction digits v (with trailing zeros) and w (without), and
// the fraction digits f and t as integers.
func operands(n float64) (i, v, w, f, t int) {
	if n < 0 {
		n = -n
	}
	ip, fp, _ := strings.Cut(strconv.FormatFloat(n, 'f', -1, 64), ".")
	i, _ = strconv.Atoi(ip)
	if fp != "" {
		v = len(fp)
		f, _ = strconv.Atoi(fp)
		trimmed := strings.TrimRight(fp, "0")
		w = len(trimmed)
		t, _ = strconv.Atoi(trimmed)
	}
	return i, v, w, f, t
}
