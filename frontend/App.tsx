import { Suspense, use, useEffect, useLayoutEffect, type ReactNode } from "react";
import { I18nextProvider, useTranslation } from "react-i18next";
import { Route, Routes, useLocation } from "react-router-dom";
import { loadI18n, readyI18n } from "#locales";
import { pages } from "#pages";
import { Footer } from "./components/Footer";
import { Header } from "./components/Header";
import { setConsentLanguage } from "./consent/language";
import { LangContext } from "./lib/lang";
import { languages, splitPath, type Lang } from "./lib/languages";
import type { PageName, Payload } from "./lib/payload";
import { PayloadProvider, useCurrentPayload, usePayload } from "./lib/payloadContext";

/**
 * pageOf guesses which page a path holds (without its language prefix), so
 * that the page's chunk loads while its data does during client navigation.
 * The server's payload has the last word; its route table is the reference.
 */
export function pageOf(rest: string): PageName {
  const [first, second, third] = rest.split("/").filter(Boolean);
  switch (first) {
    case undefined:
    case "services":
      return "Home";
    case "blog":
      return second && second !== "page" && second !== "tag" && !third ? "BlogPost" : "BlogList";
    case "schedule":
      return second === "cancel" ? "CancelBooking" : "Schedule";
    case "privacy":
    case "cookies":
      return "Legal";
    default:
      return "NotFound";
  }
}

export function App({ initial }: { initial: Payload }) {
  // Marks the document once React has taken it over (tests and styles can rely on it).
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
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

/** LanguageLayout provides a language's strings (loading them on a switch) around the shell. */
function LanguageLayout({ lang }: { lang: Lang }) {
  const i18n = readyI18n(lang) ?? use(loadI18n(lang));
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
  const { pathname } = useLocation();
  return (
    <>
      <a className="skip-link" href="#main">
        {t("nav.skip")}
      </a>
      <Header />
      <main id="main" tabIndex={-1}>
        {/* Keyed by path: a page still loading shows the placeholder, even inside a transition. */}
        <Suspense key={pathname} fallback={<Loading />}>
          <RoutePage />
        </Suspense>
      </main>
      <Footer />
    </>
  );
}

function Loading(): ReactNode {
  const { t } = useTranslation();
  return (
    <p className="loading" role="status">
      {t("loading")}
    </p>
  );
}

/** RoutePage renders the page the server says a path holds, starting its chunk while the data loads. */
function RoutePage() {
  const { pathname, hash } = useLocation();
  void pages[pageOf(splitPath(pathname).rest)].preload();
  const payload = usePayload(pathname);
  const [current, setCurrent] = useCurrentPayload();
  useEffect(() => {
    if (current !== payload) setCurrent(payload);
  }, [payload, current, setCurrent]);
  useEffect(() => applyHead(payload), [payload]);
  // A page reached by a link opens at its top, or at its #fragment. A layout
  // effect, so that it runs before the page's own effects, which may scroll
  // further (the /services routes scroll to a service). Hydration is left
  // alone: the browser has placed the page it loaded, and the visitor may
  // have scrolled since.
  useLayoutEffect(() => {
    if (document.documentElement.dataset.hydrated !== "true") return;
    const target = hash ? document.getElementById(decodeURIComponent(hash.slice(1))) : null;
    if (target) target.scrollIntoView();
    else window.scrollTo(0, 0);
  }, [pathname, hash]);
  const { Component } = pages[payload.page];
  return <Component payload={payload} />;
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
