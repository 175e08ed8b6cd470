// The open times of a service, as GET /api/slots gives them: what the time
// step requests the moment it opens, in parallel with the booking's chunk
// (useBookingChunk). Apart from api.ts (booking, moving, cancelling), so
// that the booking page's first load carries this alone.
import type { Lang } from "../../lib/languages";
import { addDays, dateIn, daysFrom, type CivilDate } from "./dates";
import { daysAhead } from "./services";

/** Slot is one bookable time, as GET /api/slots gives it (RFC 3339, UTC). */
export interface Slot {
  start: string;
  end: string;
}

/** Day is one calendar day in the visitor's zone with its open slots. */
export interface Day {
  date: string;
  slots: Slot[];
}

export interface SlotsResponse {
  service: string;
  timeZone: string;
  days: Day[];
}

/** fetchSlots asks for the open slots of `days` days from `from`, in `zone`: person's alone, when given. */
export async function fetchSlots(
  service: string,
  from: string,
  days: number,
  zone: string,
  lang: Lang,
  signal?: AbortSignal,
  person?: string | null,
): Promise<SlotsResponse> {
  const q = new URLSearchParams({ service, from, days: String(days), tz: zone, lang });
  if (person) q.set("person", person);
  const res = await fetch(`/api/slots?${q.toString()}`, { headers: { Accept: "application/json" }, signal });
  if (!res.ok) throw new Error(`slots: HTTP ${res.status}`);
  return (await res.json()) as SlotsResponse;
}

/** maxQueryDays is the most days one GET /api/slots may ask for. */
const maxQueryDays = 31;

/** OpenDays are the bookable days from today (in the zone asked for) with their open slots. */
export interface OpenDays {
  zone: string;
  first: CivilDate;
  days: Map<CivilDate, Slot[]>;
}

/** fetchOpenDays loads every bookable day at once (about a month: one or two requests) in a zone. */
export async function fetchOpenDays(service: string, zone: string, lang: Lang, signal?: AbortSignal, person?: string | null): Promise<OpenDays> {
  const first = dateIn(new Date(), zone);
  const end = addDays(first, daysAhead + 1);
  const windows: [CivilDate, number][] = [];
  for (let from = first; from <= end; from = addDays(from, maxQueryDays)) {
    windows.push([from, Math.min(maxQueryDays, daysFrom(from, end) + 1)]);
  }
  const responses = await Promise.all(windows.map(([from, n]) => fetchSlots(service, from, n, zone, lang, signal, person)));
  const days = new Map<CivilDate, Slot[]>();
  for (const r of responses) for (const d of r.days) days.set(d.date, d.slots);
  return { zone, first, days };
}
