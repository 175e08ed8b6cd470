// The consent chunk: vanilla-cookieconsent, its configuration and its
// stylesheet, loaded by start.ts when there is something to show.
//
// The stylesheet (consent.css: the library's, then the site's colours and
// adjustments) is an entry point of its own in esbuild.config.mjs; the
// server names it in the page's configuration (consentCSS). It is linked,
// not inlined, so the site's CSP holds, and its bytes are neither in the
// page's stylesheet, where they would weigh on every first paint, nor in
// this JavaScript. (Imported from here, esbuild would put it in the
// entry's stylesheet.)

import * as CookieConsent from "vanilla-cookieconsent";
import type { Lang } from "../lib/languages";
import { consentConfig, type ConsentContext } from "./config";
import { analyticsCategory, analyticsService } from "./record";

/**
 * linkStylesheet links the banner's stylesheet once and resolves when it
 * has loaded, so that the banner never shows unstyled. A stylesheet that
 * fails leaves the banner usable, unstyled.
 */
function linkStylesheet(href: string): Promise<void> {
  if (!href || document.querySelector(`link[rel="stylesheet"][href="${CSS.escape(href)}"]`)) return Promise.resolve();
  return new Promise((resolve) => {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = href;
    link.onload = link.onerror = () => resolve();
    document.head.appendChild(link);
  });
}

/** runConsent starts vanilla-cookieconsent without showing anything. */
export async function runConsent(ctx: ConsentContext): Promise<void> {
  await linkStylesheet(ctx.config.consentCSS);
  await CookieConsent.run(
    consentConfig(ctx, window.location.hostname, () =>
      ctx.onAnalytics(CookieConsent.acceptedService(analyticsService, analyticsCategory)),
    ),
  );
}

/** showBannerIfUndecided shows the consent banner unless a valid decision exists. */
export function showBannerIfUndecided(): void {
  if (!CookieConsent.validConsent()) CookieConsent.show(true);
}

/** showPreferences opens the preferences dialog (with or without a decision so far). */
export function showPreferences(): void {
  CookieConsent.showPreferences();
}

/** setBannerLanguage switches the banner and the dialog to a language (a no-op when it is the current one). */
export function setBannerLanguage(lang: Lang): void {
  void CookieConsent.setLanguage(lang);
}
