// The site's languages come from content/site.json alone, through the
// table the build derives from it ("virtual:languages"): no language is
// named in the code.
import table from "virtual:languages";

declare const langBrand: unique symbol;

/**
 * Lang is the code of one of the site's languages. A string becomes one
 * only through isLang, the table or a path (splitPath), never by naming it.
 */
export type Lang = string & { readonly [langBrand]: true };

/** Language is a language of the table, its code a Lang. */
export type Language = Omit<(typeof table.languages)[number], "code"> & { code: Lang };

export const languages = table.languages as Language[];
export const defaultLang = table.defaultLanguage as Lang;
export const storageKey: string = table.storageKey;

export function isLang(value: unknown): value is Lang {
  return languages.some((l) => l.code === value);
}

export function language(code: Lang): Language {
  return languages.find((l) => l.code === code) ?? languages[0]!;
}

/** splitPath returns the language of a path's prefix and the path without it. */
export function splitPath(path: string): { lang: Lang; rest: string } {
  for (const l of languages) {
    if (!l.prefix) continue;
    if (path === l.prefix) return { lang: l.code, rest: "/" };
    if (path.startsWith(`${l.prefix}/`)) return { lang: l.code, rest: path.slice(l.prefix.length) };
  }
  return { lang: defaultLang, rest: path };
}

/** localPath returns the unprefixed path `rest` in language `lang`. */
export function localPath(lang: Lang, rest: string): string {
  const { prefix } = language(lang);
  if (rest === "/" && prefix) return prefix;
  return prefix + rest;
}

/** browserLanguage maps a browser locale (fr-CA, de-AT, ar-EG...) to a site language; anything else is English. */
export function browserLanguage(locale: string | undefined): Lang {
  const base = (locale ?? "").toLowerCase().split(/[-_]/)[0];
  return isLang(base) ? base : defaultLang;
}

/** storedLanguage reads the visitor's saved choice; when storage is unavailable it warns and returns null. */
export function storedLanguage(): Lang | null {
  try {
    const value = window.localStorage.getItem(storageKey);
    return isLang(value) ? value : null;
  } catch (err) {
    console.warn("Local storage is unavailable; the language follows the browser.", err);
    return null;
  }
}

/** storeLanguage saves the visitor's choice; a failure only costs the memory of it. */
export function storeLanguage(lang: Lang): void {
  try {
    window.localStorage.setItem(storageKey, lang);
  } catch (err) {
    console.warn("Local storage is unavailable; the language choice is not remembered.", err);
  }
}

/**
 * languageRedirect applies the language rules to the page being loaded: an
 * unprefixed path follows the stored preference; the root path with no stored
 * preference follows the browser language. It returns the path to go to, or
 * null to stay.
 */
export function languageRedirect(path: string, stored: Lang | null, browser: Lang): string | null {
  const { lang, rest } = splitPath(path);
  if (lang !== defaultLang) return null;
  if (stored) return stored === defaultLang ? null : localPath(stored, rest);
  if (rest === "/" && browser !== defaultLang) return localPath(browser, "/");
  return null;
}
