// Dates and times of the booking flow. Everything here uses Intl, which the
// server render (goja) does not have: call these only in the browser, from
// effects, event handlers or components shown after the first effect.
import type { Lang } from "../../lib/languages";

/** A civil date, "YYYY-MM-DD", read in a zone named alongside it. */
export type CivilDate = string;

/** A month, "YYYY-MM". */
export type Month = string;

/**
 * localeOf maps a site language to the locale Intl formats it in: British
 * English, and Arabic with Western digits, as the server's internal/intl
 * writes dates in mails.
 */
export function localeOf(lang: Lang): string {
  switch (lang) {
    case "fr":
      return "fr-FR";
    case "de":
      return "de-DE";
    case "ar":
      return "ar-u-nu-latn";
    default:
      return "en-GB";
  }
}

/** hour12 says whether a language writes times on a 12-hour clock (as internal/intl does). */
function hour12(lang: Lang): boolean {
  return lang === "en" || lang === "ar";
}

/** firstDayOfWeek is 1 (Monday) in Europe, 6 (Saturday) in most Arabic-speaking countries. */
export function firstDayOfWeek(lang: Lang): number {
  return lang === "ar" ? 6 : 1;
}

/** detectZone returns the browser's IANA zone, or UTC when it cannot tell. */
export function detectZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  } catch {
    return "UTC";
  }
}

/** zoneNames lists the IANA zones the browser knows, with `current` among them. */
export function zoneNames(current: string): string[] {
  let names: string[] = [];
  try {
    names = Intl.supportedValuesOf("timeZone");
  } catch {
    names = [];
  }
  const all = new Set(names);
  all.add(current);
  all.add("UTC");
  return [...all].sort();
}

/** zoneCity turns "America/New_York" into "America/New York" for display. */
export function zoneCity(zone: string): string {
  return zone.replace(/_/g, " ");
}

/** zoneLabel names a zone for people: "Europe/Paris (Central European Time)". */
export function zoneLabel(lang: Lang, zone: string, at: Date = new Date()): string {
  try {
    const part = dateTimeFormat(localeOf(lang), { timeZone: zone, timeZoneName: "longGeneric" })
      .formatToParts(at)
      .find((p) => p.type === "timeZoneName");
    if (part && part.value !== zone) return `${zoneCity(zone)} (${part.value})`;
  } catch {
    // An engine without longGeneric names the zone by its identifier.
  }
  return zoneCity(zone);
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/**
 * dateTimeFormat returns a formatter shared by every call with the same
 * locale and options: building one costs far more than using it, and a
 * month of days with its times would otherwise build dozens.
 */
function dateTimeFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale} ${JSON.stringify(options)}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, options);
    formatters.set(key, f);
  }
  return f;
}

/** dateIn returns the civil date of an instant in a zone. */
export function dateIn(instant: Date, zone: string): CivilDate {
  const parts = dateTimeFormat("en-CA", {
    timeZone: zone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).formatToParts(instant);
  const get = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? "";
  return `${get("year")}-${get("month")}-${get("day")}`;
}

/** utcDate reads a civil date as midnight UTC, for calendar arithmetic only. */
function utcDate(d: CivilDate): Date {
  const [y, m, day] = d.split("-").map(Number);
  return new Date(Date.UTC(y ?? 1970, (m ?? 1) - 1, day ?? 1));
}

function civil(t: Date): CivilDate {
  return t.toISOString().slice(0, 10);
}

/** addDays counts calendar days, never 24-hour periods. */
export function addDays(d: CivilDate, n: number): CivilDate {
  const t = utcDate(d);
  t.setUTCDate(t.getUTCDate() + n);
  return civil(t);
}

/** daysFrom returns the number of days from a to b. */
export function daysFrom(a: CivilDate, b: CivilDate): number {
  return Math.round((utcDate(b).getTime() - utcDate(a).getTime()) / 86_400_000);
}

/** weekday returns the day of the week of d, 0 for Sunday. */
export function weekday(d: CivilDate): number {
  return utcDate(d).getUTCDay();
}

export function monthOf(d: CivilDate): Month {
  return d.slice(0, 7);
}

export function addMonths(m: Month, n: number): Month {
  const t = utcDate(`${m}-01`);
  t.setUTCMonth(t.getUTCMonth() + n);
  return civil(t).slice(0, 7);
}

/** monthDays lists every date of a month. */
export function monthDays(m: Month): CivilDate[] {
  const out: CivilDate[] = [];
  for (let d = `${m}-01`; monthOf(d) === m; d = addDays(d, 1)) out.push(d);
  return out;
}

function format(lang: Lang, d: CivilDate, options: Intl.DateTimeFormatOptions): string {
  return dateTimeFormat(localeOf(lang), { ...options, timeZone: "UTC" }).format(utcDate(d));
}

/** formatDay writes a date as "Monday 23 November". */
export function formatDay(lang: Lang, d: CivilDate): string {
  return format(lang, d, { weekday: "long", day: "numeric", month: "long" });
}

/** formatFullDay writes a date with its year, for labels that stand alone. */
export function formatFullDay(lang: Lang, d: CivilDate): string {
  return format(lang, d, { weekday: "long", day: "numeric", month: "long", year: "numeric" });
}

/** formatMonth writes a month as "November 2026". */
export function formatMonth(lang: Lang, m: Month): string {
  return format(lang, `${m}-01`, { month: "long", year: "numeric" });
}

/**
 * weekdayNames returns the abbreviated, narrow and full names of the week's
 * days, starting with the language's first day: "Mon", "M", "Monday".
 */
export function weekdayNames(lang: Lang): { short: string; narrow: string; long: string }[] {
  const sunday = "2023-01-01";
  const first = firstDayOfWeek(lang);
  return Array.from({ length: 7 }, (_, i) => {
    const d = addDays(sunday, (first + i) % 7);
    return {
      short: format(lang, d, { weekday: "short" }),
      narrow: format(lang, d, { weekday: "narrow" }),
      long: format(lang, d, { weekday: "long" }),
    };
  });
}

/** formatTime writes the clock time of an instant in a zone: "9:30 am", "09:30". */
export function formatTime(lang: Lang, instant: string, zone: string): string {
  return dateTimeFormat(localeOf(lang), {
    timeZone: zone,
    hour: "numeric",
    minute: "2-digit",
    hour12: hour12(lang),
  }).format(new Date(instant));
}

/** formatDateTime writes an instant in full in a zone, for the confirmation. */
export function formatDateTime(lang: Lang, instant: string, zone: string): string {
  return dateTimeFormat(localeOf(lang), {
    timeZone: zone,
    weekday: "long",
    day: "numeric",
    month: "long",
    year: "numeric",
    hour: "numeric",
    minute: "2-digit",
    hour12: hour12(lang),
  }).format(new Date(instant));
}
