import type { Key } from "./i18n";

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

/** languageKey is the string naming a visitor's language. */
export function languageKey(lang: string): Key {
  switch (lang) {
    case "fr":
      return "languages.fr";
    case "de":
      return "languages.de";
    case "ar":
      return "languages.ar";
  }
  return "languages.en";
}
