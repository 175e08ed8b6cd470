// Client: each language's strings are a chunk of their own, loaded on demand.
import type { i18n as I18n } from "i18next";
import { createI18n, type Strings } from "./i18n";
import type { Lang } from "./languages";

const ready = new Map<Lang, I18n>();
const pending = new Map<Lang, Promise<I18n>>();

/** loadI18n loads a language's strings once and returns its i18next instance. */
export function loadI18n(lang: Lang): Promise<I18n> {
  let p = pending.get(lang);
  if (!p) {
    p = import(`../../content/locales/${lang}.json`).then((m: { default: Strings }) => {
      const inst = createI18n(lang, m.default);
      ready.set(lang, inst);
      return inst;
    });
    pending.set(lang, p);
  }
  return p;
}

/** readyI18n returns the instance of a language already loaded, if any. */
export function readyI18n(lang: Lang): I18n | undefined {
  return ready.get(lang);
}
