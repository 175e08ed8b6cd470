// The consent chunk: vanilla-cookieconsent, its stylesheet and its
// configuration, loaded by start.ts while the page hydrates.
//
// The library's stylesheet travels in this chunk as text and is adopted as
// a constructed stylesheet: esbuild would emit a dynamic chunk's CSS as a
// file nothing links, and in the site's stylesheet it would weigh on every
// first paint (about 4.8 KB gzip of a 10 KB budget). A constructed sheet
// needs no inline <style>, so it works under the site's CSP. The banner's
// colours and the site's adjustments stay in styles/consent.css.

import * as CookieConsent from "vanilla-cookieconsent";
import baseCSS from "vanilla-cookieconsent/dist/css-components/base.css" with { type: "text" };
import consentModalCSS from "vanilla-cookieconsent/dist/css-components/consent-modal.css" with { type: "text" };
import preferencesModalCSS from "vanilla-cookieconsent/dist/css-components/preferences-modal.css" with { type: "text" };
import type { Lang } from "../lib/languages";
import { analyticsFollower } from "./analytics";
import { analyticsCategory, analyticsService, consentConfig, type ConsentContext } from "./config";

function adoptStyles(): void {
  const css = baseCSS + consentModalCSS + preferencesModalCSS;
  if ("adoptedStyleSheets" in Document.prototype) {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  } else {
    // Browsers before constructed stylesheets (Safari < 16.4); a strict CSP leaves the banner unstyled there, still usable.
    const style = document.createElement("style");
    style.textContent = css;
    document.head.appendChild(style);
  }
}

/** runConsent starts vanilla-cookieconsent without showing anything. */
export async function runConsent(ctx: ConsentContext): Promise<void> {
  adoptStyles();
  const follow = analyticsFollower(ctx.gtag, ctx.config.gaMeasurementId);
  await CookieConsent.run(
    consentConfig(ctx, window.location.hostname, () =>
      follow(CookieConsent.acceptedService(analyticsService, analyticsCategory)),
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
