import { defaultLang, isLang, language } from "../lib/languages";
import type { Key, T } from "./i18n";

/** serviceKey is the string naming a service key of the contact form or the booking. */
export function serviceKey(service: string): Key | null {
  switch (service) {
    case "custom-software":
      return "services.customSoftware";
    case "platform-engineering":
      return "services.platformEngineering";
    case "strategic-consulting":
      return "services.strategicConsulting";
    case "not-sure":
      return "services.notSure";
    case "discovery":
      return "services.discovery";
    case "strategy":
      return "services.strategy";
  }
  return null;
}

/**
 * languageName names a visitor's language in the workspace's: its
 * languages.<code> string, or, for a language the workspace's strings do
 * not name yet, its own label (content/site.json).
 */
export function languageName(t: T, lang: string): string {
  const l = language(isLang(lang) ? lang : defaultLang);
  return t(`languages.${l.code}` as Key, { defaultValue: l.label });
}
