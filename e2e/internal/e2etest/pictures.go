package e2etest

import (
	"regexp"

	"github.com/chromedp/cdproto/runtime"
)

// FirstScreenSettled waits until every picture on the first screen is
// loaded (a lazy one far below is not, and stays so).
const FirstScreenSettled = `new Promise((resolve) => {
  const done = () => [...document.images].every((img) => img.complete || img.getBoundingClientRect().top > innerHeight);
  const wait = () => (done() ? resolve(true) : setTimeout(wait, 20));
  wait();
})`

// AllSettled waits until every picture of the page is loaded.
const AllSettled = `new Promise((resolve) => {
  const wait = () => ([...document.images].every((img) => img.complete) ? resolve(true) : setTimeout(wait, 20));
  wait();
})`

// PicturesFetched lists the content pictures and copies the page has
// fetched so far.
const PicturesFetched = `performance.getEntriesByType("resource").map((e) => new URL(e.name).pathname).filter((p) => p.startsWith("/img/"))`

// CopyWidthPattern reads the width of a WebP copy from its address.
var CopyWidthPattern = regexp.MustCompile(`-(\d+)\.webp$`)

// AwaitPromise makes chromedp.Evaluate wait for the promise's value.
func AwaitPromise(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }
