// Starting the consent banner: after the page is built, without weighing on
// the first paint. This module is in the entry (under 1 KB gzip); the
// banner library is a chunk of its own, fetched while React hydrates the
// server-rendered page and run once it has.

import { loadI18n } from "#locales";
import { languages, storageKey, type Lang } from "../lib/languages";
import type { ClientConfig } from "../lib/payload";
import type { ConsentContext, Translate } from "./config";
import { gtag } from "./gtag";
import { consentLanguage, followConsentLanguage, setConsentLanguage } from "./language";

/** showDelayMs: the banner appears about 100 ms after the page is built (SPEC.md section 4). */
export const showDelayMs = 100;

/** preferencesSelector marks the buttons that open the preferences dialog (footer, cookie policy). */
const preferencesSelector = '[data-cc="show-preferencesModal"]';

type Banner = typeof import("./banner");

/**
 * startConsent wires the consent banner into a page being hydrated: about
 * 100 ms after React has built the page, the banner appears when there is
 * no valid decision; the preferences buttons open the dialog at any time,
 * before a decision too (it offers the same choice). With bot hiding on,
 * crawlers and automated browsers get nothing, not even the download.
 */
export function startConsent(config: ClientConfig, lang: Lang): void {
  setConsentLanguage(lang);
  if (config.consentHideFromBots && looksLikeBot()) return;

  // The chunk downloads while React hydrates the page; it runs once the page is built.
  const chunk = import("./banner");
  chunk.catch(() => undefined); // a failure is reported by load()
  let started: Promise<Banner> | null = null;
  const load = (): Promise<Banner> =>
    (started ??= chunk.then(async (m) => {
      const ctx: ConsentContext = {
        config,
        lang: consentLanguage(lang),
        languages,
        storageKey,
        strings: (l) => loadI18n(l).then((i18n): Translate => (key, options) => i18n.t(key, options)),
        gtag,
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
