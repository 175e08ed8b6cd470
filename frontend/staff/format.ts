import { language, type Lang } from "../lib/languages";

/** localeOf is the locale of a language (content/site.json): Arabic with Western digits, as the public site writes dates (internal/intl). */
function localeOf(lang: Lang): string {
  return language(lang).locale;
}

/** dateTime formats an instant as a date and a time in zone. */
export function dateTime(lang: Lang, iso: string, zone: string): string {
  // Month names, not a numeric date: 24 Nov 2026, 24 nov. 2026, 24. Nov. 2026, 24 نوفمبر 2026.
  return new Intl.DateTimeFormat(localeOf(lang), {
    day: "numeric",
    month: "short",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    timeZone: zone,
  }).format(new Date(iso));
}

/** time formats the time of day of an instant in zone, as dateTime writes it (two-digit hours). */
export function time(lang: Lang, iso: string, zone: string): string {
  return new Intl.DateTimeFormat(localeOf(lang), { hour: "2-digit", minute: "2-digit", timeZone: zone }).format(new Date(iso));
}

/** day formats a calendar date (YYYY-MM-DD) with its weekday. */
export function day(lang: Lang, date: string): string {
  const [y, m, d] = date.split("-").map(Number);
  return new Intl.DateTimeFormat(localeOf(lang), { weekday: "long", day: "numeric", month: "long", year: "numeric", timeZone: "UTC" }).format(
    new Date(Date.UTC(y ?? 1970, (m ?? 1) - 1, d ?? 1)),
  );
}

/** isoDate is the calendar date of now in zone, as YYYY-MM-DD. */
export function isoDate(now: Date, zone: string): string {
  return new Intl.DateTimeFormat("en-CA", { year: "numeric", month: "2-digit", day: "2-digit", timeZone: zone }).format(now);
}

/** shortDay formats a calendar date (YYYY-MM-DD) briefly, with its weekday: the heading of a day of the week's view. */
export function shortDay(lang: Lang, date: string): string {
  const [y, m, d] = date.split("-").map(Number);
  return new Intl.DateTimeFormat(localeOf(lang), { weekday: "short", day: "numeric", month: "short", timeZone: "UTC" }).format(
    new Date(Date.UTC(y ?? 1970, (m ?? 1) - 1, d ?? 1)),
  );
}
