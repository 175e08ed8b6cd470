// Dates and times of the booking flow, as the booking's chunk shows them
// (the civil dates' arithmetic is dates.ts). Everything here uses Intl,
// which the server render (goja) does not have: call these only in the
// browser, from effects, event handlers or components shown after the
// first effect.
import { language, type Lang } from "../../lib/languages";
import { addDays, type CivilDate, dateTimeFormat, type Month, utcDate } from "./dates";

/**
 * localeOf is the locale Intl formats a language in (content/site.json):
 * British English, and Arabic with Western digits, as the server's
 * internal/intl writes dates in mails.
 */
export function localeOf(lang: Lang): string {
  return language(lang).locale;
}

/** hour12 says whether a language writes times on a 12-hour clock, where its locale does not decide it (as internal/intl does). */
function hour12(lang: Lang): boolean | undefined {
  const cycle = language(lang).hourCycle;
  return cycle === undefined ? undefined : cycle === "h12";
}

/** firstDayOfWeek is the first day of a language's week, 0 for Sunday: Monday in Europe, Saturday in most Arabic-speaking countries (CLDR). */
export function firstDayOfWeek(lang: Lang): number {
  return language(lang).firstDay;
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
  return t.toISOString().slice(0, 7);
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
 * weekdayNames returns the names of the week's days, starting with the
 * language's first day: the abbreviated one of Intl ("Mon", "lun."), CLDR's
 * short one, which fits a phone's calendar ("Mo", "lu", "إثنين"; passed in,
 * Sunday first), and the full one. Where the language has no abbreviation
 * (Arabic's abbreviated names are the full ones), the short one stands for it.
 */
export function weekdayNames(lang: Lang, shortNames: string[]): { abbreviated: string; short: string; long: string }[] {
  const sunday = "2023-01-01";
  const first = firstDayOfWeek(lang);
  return Array.from({ length: 7 }, (_, i) => {
    const day = (first + i) % 7;
    const d = addDays(sunday, day);
    const long = format(lang, d, { weekday: "long" });
    const short = shortNames[day] ?? format(lang, d, { weekday: "narrow" });
    const abbreviated = format(lang, d, { weekday: "short" });
    return { abbreviated: abbreviated === long ? short : abbreviated, short, long };
  });
}

/**
 * keepTogether joins a clock time and its day period with a no-break space,
 * as the server's mails write it: "9:00 am" never breaks across two lines.
 */
function keepTogether(s: string): string {
  return s.replace(/(\d)[ \u202f](\S+)$/u, "$1\u00a0$2");
}

/** clockIn returns the hour and minute of an instant on a zone's clock. */
function clockIn(instant: string, zone: string): { hour: number; minute: number } {
  const parts = dateTimeFormat("en-GB", { timeZone: zone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).formatToParts(new Date(instant));
  const get = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value ?? "0");
  return { hour: get("hour"), minute: get("minute") };
}

/** nightStarts and nightEnds bound the visitor's night, in minutes after midnight on their clock. */
const nightEnds = 7 * 60;
const nightStarts = 21 * 60;

/** atNight reports whether an instant falls in the night of a zone: before 07:00 or after 21:00. */
export function atNight(instant: string, zone: string): boolean {
  const { hour, minute } = clockIn(instant, zone);
  const m = hour * 60 + minute;
  return m < nightEnds || m > nightStarts;
}

/** nightBounds writes the times at which the night ends and begins in a language: "7:00 am", "9:00 pm". */
export function nightBounds(lang: Lang): { ends: string; starts: string } {
  const at = (minutes: number) => new Date(Date.UTC(2023, 0, 2, 0, minutes)).toISOString();
  return { ends: formatTime(lang, at(nightEnds), "UTC"), starts: formatTime(lang, at(nightStarts), "UTC") };
}

/** formatTime writes the clock time of an instant in a zone: "9:30 am", "09:30". */
export function formatTime(lang: Lang, instant: string, zone: string): string {
  return formatClock(lang, instant, zone, {});
}

/** formatDateTime writes an instant in full in a zone, for the confirmation. */
export function formatDateTime(lang: Lang, instant: string, zone: string): string {
  return formatClock(lang, instant, zone, { weekday: "long", day: "numeric", month: "long", year: "numeric" });
}

/** formatClock writes an instant in a zone: the date fields given, then the time on the language's clock. */
function formatClock(lang: Lang, instant: string, zone: string, date: Intl.DateTimeFormatOptions): string {
  return keepTogether(
    dateTimeFormat(localeOf(lang), { timeZone: zone, ...date, hour: "numeric", minute: "2-digit", hour12: hour12(lang) }).format(new Date(instant)),
  );
}
