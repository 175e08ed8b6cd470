// Server: every language is bundled whole and initialised once per runtime;
// the groups of the client (locales.ts) are all there.
import type { i18n as I18n } from "i18next";
import ar from "../../content/locales/ar.json";
import de from "../../content/locales/de.json";
import en from "../../content/locales/en.json";
import fr from "../../content/locales/fr.json";
import { createI18n, type StringGroup, type Translate } from "./i18n";
import type { Lang } from "./languages";

export { pageGroups, type StringGroup, type Translate } from "./i18n";

const instances: Record<Lang, I18n> = {
  en: createI18n("en", en),
  fr: createI18n("fr", fr),
  de: createI18n("de", de),
  ar: createI18n("ar", ar),
};

export function loadStrings(lang: Lang, _groups: readonly StringGroup[]): Promise<I18n> {
  return Promise.resolve(instances[lang]);
}

export function readyStrings(lang: Lang, _groups: readonly StringGroup[]): I18n | undefined {
  return instances[lang];
}

export function loadTranslate(lang: Lang, _group: StringGroup): Promise<Translate> {
  const i18n = instances[lang];
  return Promise.resolve((key, options) => i18n.t(key, options));
}
