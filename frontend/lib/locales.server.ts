// Server: every language is bundled whole and initialised once per runtime;
// the groups of the client (locales.ts) are all there. The languages and
// their strings are those of content/site.json ("virtual:locales").
import type { i18n as I18n } from "i18next";
import strings from "virtual:locales";
import { createI18n, type StringGroup, type Translate } from "./i18n";
import { defaultLang, languages, type Lang } from "./languages";

export { pageGroups, type StringGroup, type Translate } from "./i18n";

const instances = new Map<Lang, I18n>(languages.map((l) => [l.code, createI18n(l.code, strings[l.code] ?? {})]));

function instance(lang: Lang): I18n {
  return (instances.get(lang) ?? instances.get(defaultLang))!;
}

export function loadStrings(lang: Lang, _groups: readonly StringGroup[]): Promise<I18n> {
  return Promise.resolve(instance(lang));
}

export function readyStrings(lang: Lang, _groups: readonly StringGroup[]): I18n | undefined {
  return instance(lang);
}

export function loadTranslate(lang: Lang, _group: StringGroup): Promise<Translate> {
  const i18n = instance(lang);
  return Promise.resolve((key, options) => i18n.t(key, options));
}
