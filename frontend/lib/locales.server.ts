// Server: every language is bundled and initialised once per runtime.
import type { i18n as I18n } from "i18next";
import ar from "../../content/locales/ar.json";
import de from "../../content/locales/de.json";
import en from "../../content/locales/en.json";
import fr from "../../content/locales/fr.json";
import { createI18n, type Strings } from "./i18n";
import type { Lang } from "./languages";

const instances: Record<Lang, I18n> = {
  en: createI18n("en", en),
  fr: createI18n("fr", fr as Strings),
  de: createI18n("de", de as Strings),
  ar: createI18n("ar", ar as Strings),
};

export function loadI18n(lang: Lang): Promise<I18n> {
  return Promise.resolve(instances[lang]);
}

export function readyI18n(lang: Lang): I18n | undefined {
  return instances[lang];
}
