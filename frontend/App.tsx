import { Suspense, use, useEffect, useLayoutEffect, type ReactNode } from "react";
import { I18nextProvider, useTranslation } from "react-i18next";
import { Route, Routes, useLocation, useNavigationType } from "react-router-dom";
import { loadStrings, pageGroups, readyStrings } from "#locales";
import { pages } from "#pages";
import { Footer } from "./components/Footer";
import { Header } from "./components/Header";
import { setConsentLanguage } from "./consent/language";
import { LangContext } from "./lib/lang";
import { languages, type Lang } from "./lib/languages";
import { useNavigationPending } from "./lib/pending";
import type { Payload } from "./lib/payload";
import { PayloadProvider, useCurrentPayload, usePayload } from "./lib/payloadContext";
import { followScroll, leavingPage, savedScroll } from "./lib/scroll";

export function App({ initial }: { initial: Payload }) {
  // Marks the document once React has taken it over (tests and styles can rely on it).
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
    return followScroll();
  }, []);
  return (
    <PayloadProvider initial={initial}>
      <Suspense fallback={null}>
        {/*
          One route per language: which page a path holds is the server's
          answer (the payload), not a second route table matched on every
          render, which in goja cost more than the page itself.
        */}
        <Routes>
          {languages.map((l) => (
            <Route key={l.code} path={l.prefix ? `${l.prefix}/*` : "*"} element={<LanguageLayout lang={l.code} />} />
          ))}
        </Routes>
      </Suspense>
    </PayloadProvider>
  );
}

/** LanguageLayout provides a language's strings around the shell (a navigation has loaded them). */
function LanguageLayout({ lang }: { lang: Lang }) {
  const i18n = readyStrings(lang, []) ?? use(loadStrings(lang, []));
  return (
    <I18nextProvider i18n={i18n}>
      <LangContext value={lang}>
        <Shell />
      </LangContext>
    </I18nextProvider>
  );
}

function Shell() {
  const { t } = useTranslation();
  const { pathname, key } = useLocation();
  const payload = useCurrentPayload();
  const pending = useNavigationPending();
  // The page being left keeps where it was scrolled to, for the back button.
  useLayoutEffect(() => () => leavingPage(key), [key]);
  // The head follows in the commit that shows the page (or its
  // placeholder), so that the address, the language, the direction and
  // the title change together.
  useLayoutEffect(() => applyHead(payload), [payload]);
  return (
    <>
      <a className="skip-link" href="#main">
        {t("nav.skip")}
      </a>
      <Header />
      <main id="main" tabIndex={-1}>
        {pending ? (
          <Loading />
        ) : (
          // Keyed by path: a page whose chunk or strings are still on their way shows the placeholder.
          <Suspense key={pathname} fallback={<Loading />}>
            <RoutePage />
          </Suspense>
        )}
      </main>
      <Footer />
    </>
  );
}

/**
 * Loading is the placeholder of a page whose chunk or data is on its way.
 * A navigation may start far down a page (a link in the footer): the
 * placeholder is brought into view, where the visitor looks, rather than
 * left above it with only the footer on screen.
 */
function Loading(): ReactNode {
  const { t } = useTranslation();
  useLayoutEffect(() => {
    if (document.documentElement.dataset.hydrated === "true") window.scrollTo({ top: 0, behavior: "instant" });
  }, []);
  return (
    <p className="loading" role="status">
      {t("loading")}
    </p>
  );
}

/** RoutePage renders the page the server says a path holds, once its strings are here. */
function RoutePage() {
  const { pathname, hash, key } = useLocation();
  const navigation = useNavigationType();
  const payload = usePayload(pathname);
  const groups = pageGroups(payload.page);
  if (!readyStrings(payload.lang, groups)) use(loadStrings(payload.lang, groups));
  // A page reached by a link opens at its top, or at its #fragment, with
  // the focus on its main heading (or the fragment's), as a new document
  // would be read from its start; the back and forward buttons return to
  // where the page was scrolled. A layout effect, so that it runs before
  // the page's own effects, which may move on (the /services routes scroll
  // to a service, a booking step focuses its heading). Hydration is left
  // alone: the browser has placed the page it loaded.
  useLayoutEffect(() => {
    if (document.documentElement.dataset.hydrated !== "true") return;
    // A link to a #fragment of the page itself (a plain anchor) comes back
    // as a POP of an entry without a key of its own ("default"): it goes to
    // its fragment, not to where the first page was left.
    const saved = navigation === "POP" && !(hash && key === "default") ? savedScroll(key) : undefined;
    const target = hash ? document.getElementById(decodeURIComponent(hash.slice(1))) : null;
    if (saved !== undefined) {
      window.scrollTo({ top: saved, behavior: "instant" });
    } else if (target) {
      target.scrollIntoView();
      focusHeading(target.matches("h1, h2, h3") ? target : target.querySelector("h1, h2, h3"));
    } else if (navigation !== "POP") {
      window.scrollTo({ top: 0, behavior: "instant" });
      focusHeading(document.querySelector("main h1"));
    }
  }, [key, hash, navigation]);
  const { Component } = pages[payload.page];
  return <Component payload={payload} />;
}

/** focusHeading moves the focus to a heading without scrolling, making it focusable if it is not. */
function focusHeading(heading: Element | null) {
  if (!(heading instanceof HTMLElement)) {
    document.getElementById("main")?.focus({ preventScroll: true });
    return;
  }
  if (!heading.hasAttribute("tabindex")) heading.setAttribute("tabindex", "-1");
  heading.focus({ preventScroll: true });
}

/** applyHead brings the document's head in line with a page reached by client navigation. */
function applyHead(payload: Payload) {
  const lang = languages.find((l) => l.code === payload.lang);
  document.documentElement.lang = lang?.tag ?? payload.lang;
  document.documentElement.dir = lang?.dir ?? "ltr";
  setConsentLanguage(payload.lang);
  document.title = payload.head.title;
  document.querySelector('meta[name="description"]')?.setAttribute("content", payload.head.description);
}
