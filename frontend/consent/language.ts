// The page's language, as the consent banner should speak it. The app sets
// it on every page it shows (client navigation included); the banner, once
// loaded, follows it. This module is shared with the server bundle, so it
// touches no browser API and loads nothing.

import type { Lang } from "../lib/languages";

let current: Lang | null = null;
let follower: ((lang: Lang) => void) | null = null;

/** setConsentLanguage tells the consent banner the language of the page on screen. */
export function setConsentLanguage(lang: Lang): void {
  if (lang === current) return;
  current = lang;
  follower?.(lang);
}

/** consentLanguage returns the language last set, or fallback before any page said. */
export function consentLanguage(fallback: Lang): Lang {
  return current ?? fallback;
}

/** followConsentLanguage registers the one function that applies language changes. */
export function followConsentLanguage(fn: (lang: Lang) => void): void {
  follower = fn;
}
