// Civil dates and the browser's zone: what the time step needs the moment
// it opens, to request the open times (slots.ts); the rest of the dates
// and times of the booking, which format them, is time.ts, in the
// booking's chunk. Browser only: Intl.

/** A civil date, "YYYY-MM-DD", read in a zone named alongside it. */
export type CivilDate = string;

/** A month, "YYYY-MM". */
export type Month = string;

/** detectZone returns the browser's IANA zone, or UTC when it cannot tell. */
export function detectZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  } catch {
    return "UTC";
  }
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/**
 * dateTimeFormat returns a formatter shared by every call with the same
 * locale and options: building one costs far more than using it, and a
 * month of days with its times would otherwise build dozens.
 */
export function dateTimeFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
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
export function utcDate(d: CivilDate): Date {
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
