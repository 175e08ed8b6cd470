import i18next, { type i18n as I18n, type Resource } from "i18next";
import { initReactI18next } from "react-i18next";
import type en from "../../content/locales/en.json";
import type { Lang } from "./languages";

export type Strings = typeof en;

/**
 * createI18n returns a new, fully initialised i18next instance for one
 * language: never the global instance, so no render can leak its language
 * into another.
 */
export function createI18n(lang: Lang, strings: Strings): I18n {
  const resources: Resource = { [lang]: { translation: strings } };
  const inst = i18next.createInstance();
  void inst.use(initReactI18next).init({
    lng: lang,
    resources,
    initAsync: false,
    interpolation: { escapeValue: false },
    react: { useSuspense: false },
    returnNull: false,
  });
  return inst;
}
