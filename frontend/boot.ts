// The first script of every page, a few hundred bytes: it applies the
// language rules (a stored or browser language may send the visitor to
// another address before anything is shown), then starts the app's
// JavaScript once the server's HTML is on screen.
//
// The page is whole without JavaScript: it is rendered on the server, and
// its forms post without it. Its modules are requested after the first
// paint, not while the document is parsed, so that on a phone's slow
// network the HTML and the stylesheet have the bandwidth to themselves,
// and on a fast one the first paint does not wait for React to evaluate
// and hydrate. The page's chunks and strings (data-preload) are preloaded
// at the same moment as the entry, which hydrates (data-entry).

import { browserLanguage, languageRedirect, storedLanguage } from "./lib/languages";

function boot(): void {
  const redirect = languageRedirect(window.location.pathname, storedLanguage(), browserLanguage(navigator.language));
  if (redirect) {
    window.location.replace(redirect + window.location.search + window.location.hash);
    return;
  }
  const script = document.querySelector<HTMLScriptElement>("script[data-entry]");
  if (!script?.dataset.entry) return;
  const { entry, preload = "" } = script.dataset;
  const start = () => {
    for (const href of preload.split(" ").filter(Boolean)) {
      const link = document.createElement("link");
      link.rel = "modulepreload";
      link.href = href;
      document.head.appendChild(link);
    }
    const module = document.createElement("script");
    module.type = "module";
    module.src = entry;
    document.head.appendChild(module);
  };
  afterFirstPaint(start);
}

/**
 * afterFirstPaint calls fn once the page's first contentful paint is on
 * screen, as the browser reports it (paint timing): the frame is then out,
 * not only drawn. Without paint timing, after the second frame. A page
 * opened in a background tab paints nothing until it is shown: it starts
 * at once. If no paint is reported within a few seconds, it starts anyway.
 */
function afterFirstPaint(fn: () => void): void {
  let done = false;
  const go = () => {
    if (done) return;
    done = true;
    fn();
  };
  if (document.visibilityState === "hidden") {
    go();
    return;
  }
  window.setTimeout(go, 3000);
  if (PerformanceObserver.supportedEntryTypes?.includes("paint")) {
    new PerformanceObserver((list, observer) => {
      if (list.getEntriesByName("first-contentful-paint").length === 0) return;
      observer.disconnect();
      window.setTimeout(go, 0);
    }).observe({ type: "paint", buffered: true });
  } else {
    requestAnimationFrame(() => requestAnimationFrame(() => window.setTimeout(go, 0)));
  }
}

boot();
