// Starting the consent banner: after the page is built, without weighing on
// the first paint. This module is in the entry (about 1 KB gzip); the
// banner library is a chunk of its own, with its stylesheet, fetched only
// when there is something to show: while React hydrates the page of a
// visitor without a valid decision, or when the preferences are opened. A
// returning visitor's stored decision is applied here, without it.

import { loadTranslate } from "#locales";
import { languages, storageKey, type Lang } from "../lib/languages";
import type { ClientConfig } from "../lib/payload";
import { analyticsFollower } from "./analytics";
import type { ConsentContext } from "./config";
import { gtag } from "./gtag";
import { consentLanguage, followConsentLanguage, setConsentLanguage } from "./language";
import { storedChoice } from "./record";

/** showDelayMs: the banner appears about 100 ms after the page is built (docs/ARCHITECTURE.md, Consent). */
export const showDelayMs = 100;

/** preferencesSelector marks the buttons that open the preferences dialog (footer, cookie policy). */
const preferencesSelector = '[data-cc="show-preferencesModal"]';

type Banner = typeof import("./banner");

/**
 * startConsent wires the consent banner into a page being hydrated: about
 * 100 ms after React has built the page, the banner appears when there is
 * no valid decision; the preferences buttons open the dialog at any time,
 * before a decision too (it offers the same choice). A valid decision's
 * analytics choice is applied at once, and the banner's chunk is not
 * fetched for it. With bot hiding on, crawlers and automated browsers get
 * nothing, not even the download.
 */
export function startConsent(config: ClientConfig, lang: Lang): void {
  setConsentLanguage(lang);
  if (config.consentHideFromBots && looksLikeBot()) return;

  const onAnalytics = analyticsFollower(gtag, config.gaMeasurementId);
  const stored = storedChoice();
  if (stored) onAnalytics(stored.analytics);

  // Without a decision, the chunk downloads while React hydrates the page
  // and runs once the page is built; with one, on the first click on a
  // preferences button.
  let chunk: Promise<Banner> | null = null;
  const fetchChunk = (): Promise<Banner> => (chunk ??= import("./banner"));
  if (!stored) {
    fetchChunk().catch(() => undefined); // a failure is reported by load()
    // The banner's strings download beside it, not after it has run.
    loadTranslate(consentLanguage(lang), "consent").catch(() => undefined);
  }
  let started: Promise<Banner> | null = null;
  const load = (): Promise<Banner> =>
    (started ??= fetchChunk().then(async (m) => {
      const ctx: ConsentContext = {
        config,
        lang: consentLanguage(lang),
        languages,
        storageKey,
        strings: (l) => loadTranslate(l, "consent"),
        onAnalytics,
      };
      await m.runConsent(ctx);
      followConsentLanguage(m.setBannerLanguage);
      // The page may have changed language while the banner started.
      m.setBannerLanguage(consentLanguage(lang));
      return m;
    }));
  const report = (err: unknown) => console.error("The cookie banner could not start:", err);

  // Delegated, so that buttons React renders later (another page, another language) work too.
  document.addEventListener("click", (event) => {
    const button = event.target instanceof Element ? event.target.closest(preferencesSelector) : null;
    // vanilla-cookieconsent also binds the buttons present when it starts, and prevents the default.
    if (!button || event.defaultPrevented) return;
    event.preventDefault();
    load().then((m) => m.showPreferences(), report);
  });

  if (stored) return;
  whenHydrated(() => {
    const showAt = performance.now() + showDelayMs;
    load().then((m) => {
      window.setTimeout(() => m.showBannerIfUndecided(), Math.max(0, showAt - performance.now()));
    }, report);
  });
}

/**
 * looksLikeBot is the test vanilla-cookieconsent 3.1 applies with
 * hideFromBots (it stops there); applying it first spares bots the chunk.
 */
function looksLikeBot(): boolean {
  return navigator.webdriver || /bot|crawl|spider|slurp|teoma/i.test(navigator.userAgent);
}

/** whenHydrated calls fn once App has marked the document as hydrated. */
function whenHydrated(fn: () => void): void {
  const root = document.documentElement;
  if (root.dataset.hydrated === "true") {
    fn();
    return;
  }
  const observer = new MutationObserver(() => {
    if (root.dataset.hydrated !== "true") return;
    observer.disconnect();
    fn();
  });
  observer.observe(root, { attributes: true, attributeFilter: ["data-hydrated"] });
}
