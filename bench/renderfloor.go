package main

import (
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/northbeam/site/internal/assets"
	"github.com/northbeam/site/render"
)

// The render floors: the same two engines on code that is not the site's,
// so that the site's ratio can be told from what an interpreter costs
// against a JIT whatever it runs.

// reactFloor renders a list of links with React alone: no router, no
// i18n, no page code. The payload sets how many items (a home page writes
// about as many elements).
const reactFloor = `
import { createElement as h } from "react";
import { renderToString } from "react-dom/server";
function Item({ n, text }) {
  return h("li", { className: "item", "data-n": n }, h("a", { href: "/items/" + n }, text), h("span", null, " #", n));
}
function List({ items }) {
  return h("main", null, h("h1", null, "Items"), h("ul", null, items.map((text, n) => h(Item, { key: n, n, text }))));
}
globalThis.renderPage = (json) => renderToString(h(List, JSON.parse(json)));
`

// plainFloor is JavaScript without any library: objects, method calls,
// closures, arrays and strings.
const plainFloor = `globalThis.renderPage = function (json) {
  var n = JSON.parse(json).n;
  function Item(i) { this.i = i; this.name = "item-" + i; }
  Item.prototype.label = function () { return this.i % 3 === 0 ? this.name.toUpperCase() : this.name; };
  var items = [];
  for (var i = 0; i < n; i++) items.push(new Item(i));
  var labels = items.filter(function (it) { return it.i % 2 === 0; }).map(function (it) { return it.label(); });
  var total = 0;
  labels.forEach(function (l) { total += l.length; });
  return labels.slice(0, 3).join(",") + " " + total;
};`

func renderFloors(root string, warmup, samples int) error {
	react, err := floorBundle(root, reactFloor)
	if err != nil {
		return err
	}
	items := make([]string, 300)
	for i := range items {
		items[i] = fmt.Sprintf("Item number %d", i)
	}
	reactPayload := `{"items":["` + strings.Join(items, `","`) + `"]}`
	fmt.Println("\nfloors: the same engines on code that is not the site's (CPU time per render)")
	for _, f := range []struct {
		name, bundle, payload string
	}{
		{"React alone: renderToString of 300 list items, no router, no i18n", react, reactPayload},
		{"plain JavaScript: 20,000 objects, calls, closures, strings", plainFloor, `{"n":20000}`},
	} {
		engine, err := render.NewEngine([]byte(f.bundle), render.Options{Runtimes: 1, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
		if err != nil {
			return fmt.Errorf("%s: %w", f.name, err)
		}
		rows, err := compareRenders([]byte(f.bundle), nil, engine, []renderSample{{f.name, f.payload}}, warmup, samples)
		if err != nil {
			return err
		}
		r := rows[0]
		fmt.Printf("  %-66s goja %6.2f ms  Node %6.2f ms  %5.1f×  no JIT %6.2f ms  %5.1f×\n", f.name, r.goja.CPU, r.node.CPU, r.ratio(), r.nodeNoJIT.CPU, r.goja.CPU/r.nodeNoJIT.CPU)
	}
	return nil
}

// floorBundle bundles entry as the server bundle is bundled (its options,
// React's production build, the joined render output).
func floorBundle(root, entry string) (string, error) {
	cfg, err := assets.LoadConfig(filepath.Join(root, "esbuild.config.mjs"))
	if err != nil {
		return "", err
	}
	opts, err := cfg.ServerOptions(root)
	if err != nil {
		return "", err
	}
	opts.EntryPoints = nil
	opts.Stdin = &api.StdinOptions{Contents: entry, ResolveDir: root, Loader: api.LoaderJS}
	opts.Outfile = "floor.js"
	opts.Metafile = false
	res := api.Build(opts)
	if len(res.Errors) > 0 {
		return "", fmt.Errorf("render floor: %s", res.Errors[0].Text)
	}
	for _, f := range res.OutputFiles {
		if strings.HasSuffix(f.Path, ".js") {
			return string(f.Contents), nil
		}
	}
	return "", fmt.Errorf("render floor: no script")
}
