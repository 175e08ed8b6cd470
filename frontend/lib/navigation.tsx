// Client navigation: the next page is prepared before anything on screen
// changes, then the address, the language, the direction, the title and
// the content change together, in one commit. The server has no part in
// this file (it renders with a StaticRouter).
import { startTransition, useLayoutEffect, useState, type ReactNode } from "react";
import { flushSync } from "react-dom";
import {
  parsePath,
  Router,
  UNSAFE_createBrowserHistory as createBrowserHistory,
  type Location,
  type NavigationType,
  type Navigator,
  type To,
} from "react-router-dom";
import { loadStrings, pageGroups, readyStrings } from "#locales";
import { pages } from "#pages";
import { routeOf, type PageName } from "../pages/table";
import { splitPath, type Lang } from "./languages";
import type { Payload } from "./payload";
import { fetchPayload, readyPayload } from "./payloadContext";
import { PendingContext } from "./pending";
import { pinScroll } from "./scroll";

/**
 * placeholderDelayMs: a page that takes longer than this to arrive shows
 * the "Loading..." placeholder meanwhile; one that arrives sooner replaces
 * the page on screen with nothing in between.
 */
export const placeholderDelayMs = 300;

/** ready reports whether everything a path's page needs is here: its payload, its chunk and its strings. */
function ready(path: string): boolean {
  const payload = readyPayload(path);
  return !!payload && pages[payload.page].loaded() && !!readyStrings(payload.lang, pageGroups(payload.page));
}

/** pageReady resolves once a page's chunk and its strings in lang are here. */
function pageReady(page: PageName, lang: Lang): Promise<unknown> {
  return Promise.all([pages[page].preload(), loadStrings(lang, pageGroups(page))]);
}

/**
 * prepare starts everything a path needs at once: its payload, and the
 * chunk and strings of the page it most likely holds. frame resolves when
 * the new page's frame can be shown (its payload: title, language; the
 * shell's strings in that language); page when the page itself can.
 */
function prepare(path: string): { frame: Promise<Payload>; page: Promise<Payload> } {
  const { lang, rest } = splitPath(path);
  const guess = routeOf(rest).page;
  const payload = fetchPayload(path);
  const guessed = pageReady(guess, lang);
  guessed.catch(() => undefined); // reported through page, when it is the one
  const frame = Promise.all([payload, loadStrings(lang, [])]).then(([p]) => loadStrings(p.lang, []).then(() => p));
  const page = payload.then((p) => (p.page === guess && p.lang === lang ? guessed : pageReady(p.page, p.lang)).then(() => p));
  return { frame, page };
}

interface RouterState {
  action: NavigationType;
  location: Location;
}

/**
 * PreparedRouter is react-router's BrowserRouter, but for when the address
 * changes. A link leads to a page once the page is here (or, after
 * placeholderDelayMs, once its payload is, the rest showing as the
 * placeholder); React renders it in a transition, without holding the main
 * thread, while the old page stays under the old address; the commit that
 * shows it writes the new address, in the same task, so that no frame
 * shows one without the other. The back and forward buttons move the
 * address first (the browser does); their pages were seen in this
 * document, so they are here and shown at once.
 */
export function PreparedRouter({ children }: { children: ReactNode }) {
  const [history] = useState(() => createBrowserHistory({ window }));
  const [state, setState] = useState<RouterState>(() => ({ action: history.action, location: history.location }));
  const [pending, setPending] = useState(false);
  const [{ navigator, listen }] = useState(() => navigation(history, setState, setPending));
  useLayoutEffect(listen, [listen]);
  // The address, written by the commit that shows its page.
  useLayoutEffect(() => {
    const { action, location } = state;
    if (action === "POP" || history.location.key === location.key) return;
    if (action === "PUSH") history.push(location, location.state);
    else history.replace(location, location.state);
  }, [history, state]);
  return (
    <PendingContext value={pending}>
      <Router location={state.location} navigationType={state.action} navigator={navigator}>
        {children}
      </Router>
    </PendingContext>
  );
}

type BrowserHistory = ReturnType<typeof createBrowserHistory>;

/** navigation returns the router's navigator, and the function that follows the back and forward buttons. */
function navigation(
  history: BrowserHistory,
  setState: (s: RouterState) => void,
  setPending: (pending: boolean) => void,
): { navigator: Navigator; listen: () => () => void } {
  let latest = 0;

  /** go prepares the page at to, then calls show, unless another navigation started meanwhile. */
  const go = (to: Location, show: () => void) => {
    const path = to.pathname;
    const id = ++latest;
    // The app puts a page where it was left (App.tsx); the browser would
    // put it where the page was when the new address was written, after
    // the new page had replaced it. Until the document is left: a reload
    // is the browser's to place.
    window.history.scrollRestoration = "manual";
    if (ready(path)) {
      show();
      return;
    }
    const { frame, page } = prepare(path);
    let framed = false;
    frame.then(
      () => (framed = true),
      () => undefined,
    );
    const slow = new Promise<void>((resolve) => window.setTimeout(resolve, placeholderDelayMs));
    void slow.then(() => {
      if (id !== latest || framed) return;
      // Still no payload: the placeholder, in place of the page being left.
      pinScroll();
      setPending(true);
    });
    Promise.race([page, slow.then(() => frame)]).then(
      () => {
        if (id === latest) show();
      },
      (err: unknown) => {
        if (id !== latest) return;
        console.warn("Could not load the page; loading it from the server instead.", err);
        window.location.assign(history.createHref(to));
      },
    );
  };

  /** link is a navigation by the app: a link, or code (PUSH or REPLACE). */
  const link = (action: NavigationType, to: To, state: unknown) => {
    const path = typeof to === "string" ? parsePath(to) : to;
    const current = history.location;
    const location: Location = {
      pathname: path.pathname ?? current.pathname,
      search: path.search ?? "",
      hash: path.hash ?? "",
      state: state ?? null,
      key: Math.random().toString(36).slice(2, 10),
    };
    go(location, () =>
      startTransition(() => {
        setState({ action, location });
        setPending(false);
      }),
    );
  };

  return {
    navigator: {
      createHref: (to) => history.createHref(to),
      encodeLocation: (to) => history.encodeLocation(to),
      go: (delta) => history.go(delta),
      push: (to, state) => link("PUSH" as NavigationType, to, state),
      replace: (to, state) => link("REPLACE" as NavigationType, to, state),
    },
    listen: () => {
      // The back and forward buttons, and links to a #fragment of the page:
      // the address has changed already, so the page follows at once.
      const unlisten = history.listen(({ action, location }) =>
        go(location, () =>
          flushSync(() => {
            setState({ action, location });
            setPending(false);
          }),
        ),
      );
      const leave = () => {
        window.history.scrollRestoration = "auto";
      };
      window.addEventListener("pagehide", leave);
      return () => {
        unlisten();
        window.removeEventListener("pagehide", leave);
      };
    },
  };
}
