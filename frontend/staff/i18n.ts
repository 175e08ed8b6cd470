import i18next, { type i18n as I18n } from "i18next";
import { createContext, useContext } from "react";
import type en from "../../content/staff/locales/en.json";
import type { Lang } from "../lib/languages";

/** Strings is the shape of a workspace locale file; en.json is the reference. */
export type Strings = typeof en;

/** Plural is a key's plural form (i18next's suffixes, CLDR's categories), which t picks from a count. */
type Plural<K extends string> = K extends `${infer Base}_${"zero" | "one" | "two" | "few" | "many" | "other"}` ? Base : K;

type Leaves<T, P extends string = ""> = {
  [K in keyof T & string]: T[K] extends string ? `${P}${Plural<K>}` : Leaves<T[K], `${P}${K}.`>;
}[keyof T & string];

/** Key is any string of the workspace, a plural one without its form's suffix: a typo is a type error. */
export type Key = Leaves<Strings>;

/** loadStrings loads a language's strings (a chunk of their own) into a fresh i18next instance. */
export async function loadStrings(lang: Lang): Promise<I18n> {
  const strings = (await import(`../../content/staff/locales/${lang}.json`)) as { default: Strings };
  const inst = i18next.createInstance();
  await inst.init({
    lng: lang,
    resources: { [lang]: { translation: strings.default } },
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  return inst;
}

export const I18nContext = createContext<I18n | null>(null);

/** T translates a key, with {{name}} placeholders filled from vars. */
export type T = (key: Key, vars?: Record<string, string | number>) => string;

/** useT returns the workspace's translate function. */
export function useT(): T {
  const i18n = useContext(I18nContext);
  if (!i18n) throw new Error("useT outside the workspace");
  return (key, vars) => i18n.t(key, vars ?? {});
}
