import i18next, { type i18n as I18n, type InitOptions, type Resource, type ResourceKey } from "i18next";
import { initReactI18next } from "react-i18next";
import type en from "../../content/locales/en.json";
import { pageTable, type PageName } from "../pages/table";
import type { Lang } from "./languages";
import type stringsFile from "./strings.json";

export type Strings = typeof en;

/**
 * StringGroup names a group of strings (frontend/lib/strings.json): the
 * client loads a page's groups, not a language's every string.
 */
export type StringGroup = keyof (typeof stringsFile)["groups"];

/** Translate returns a string of a language in the groups loaded. */
export type Translate = (key: string, options?: Record<string, unknown>) => string;

/** pageGroups returns the string groups a page shows, the shell's first. */
export function pageGroups(page: PageName): StringGroup[] {
  return ["common", ...pageTable[page].strings];
}

/**
 * createI18n returns a new, fully initialised i18next instance for one
 * language: never the global instance, so no render can leak its language
 * into another. strings may be some groups only; more are added later
 * (addStrings). options add to the site's (the server's report of
 * missing strings).
 */
export function createI18n(lang: Lang, strings: ResourceKey, options?: InitOptions): I18n {
  const resources: Resource = { [lang]: { translation: strings } };
  const inst = i18next.createInstance();
  void inst.use(initReactI18next).init({
    lng: lang,
    resources,
    initAsync: false,
    interpolation: { escapeValue: false },
    react: { useSuspense: false },
    returnNull: false,
    ...options,
  });
  return inst;
}

/** addStrings adds a group's strings to a language's instance. */
export function addStrings(inst: I18n, lang: Lang, strings: ResourceKey): void {
  inst.addResourceBundle(lang, "translation", strings, true, true);
}
