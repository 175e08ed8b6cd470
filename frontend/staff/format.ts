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

/**
 * dateTimeParts is dateTime cut where a line may break: the date, the
 * separator, and the time of day with its day period ("10:15 ص"), which
 * must stay together; the date is the whole text when there is no time.
 */
export function dateTimeParts(lang: Lang, iso: string, zone: string): [date: string, separator: string, clock: string] {
  const parts = new Intl.DateTimeFormat(localeOf(lang), {
    day: "numeric",
    month: "short",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    timeZone: zone,
  }).formatToParts(new Date(iso));
  const hour = parts.findIndex((p) => p.type === "hour");
  if (hour < 1) return [parts.map((p) => p.value).join(""), "", ""];
  const text = (from: number, to: number) =>
    parts
      .slice(from, to)
      .map((p) => p.value)
      .join("");
  const sep = parts[hour - 1]!.type === "literal" ? hour - 1 : hour;
  return [text(0, sep), text(sep, hour), text(hour, parts.length)];
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
