import type { Lang } from "../../lib/languages";
import type { HostCard } from "./hosts";
import type { SlotsResponse } from "./slots";

/** Meeting says how a consultation happens: the video room, or the number the consultancy calls. */
export interface Meeting {
  kind: "video" | "phone";
  url?: string;
  phone?: string;
}

/** CreatedBooking is the booking in a 201 from POST /api/bookings (and a 200 of a move). */
export interface CreatedBooking {
  token: string;
  service: string;
  start: string;
  end: string;
  ics: string;
  timeZone: string;
  calendar: { google: string; outlook: string };
  meeting?: Meeting;
  /** reminder says that a reminder will be mailed before the meeting. */
  reminder: boolean;
  /** reminderLead says how long before the meeting the reminder comes (REMINDER_HOURS), when there is one. */
  reminderLead?: ReminderLead;
  /** host is who takes the call, for a consultation booked with a person. */
  host?: HostCard;
}

/** ReminderLead is how long before a meeting its reminder comes: the day before, some days or some hours before. */
export interface ReminderLead {
  unit: "day" | "days" | "hours";
  count: number;
}

export interface BookingRequest {
  service: string;
  start: string;
  name: string;
  email: string;
  company?: string;
  topic?: string;
  timeZone: string;
  lang: Lang;
  /** phone is the visitor's number, for a consultation by phone. */
  phone?: string;
  /** person is the host the visitor asked for (their slug). */
  person?: string;
  /** meeting is the visitor's choice of a phone or a video call, where the consultation allows both. */
  meeting?: "phone" | "video";
  /** website is the honeypot: people never see it, bots fill it in. */
  website: string;
  /** renderedAt is when the details form was shown (Unix ms): people take a few seconds. */
  renderedAt: number;
}

/** ApiError is the body of every API error (docs/ARCHITECTURE.md, HTTP surface); a 409 adds fresh slots. */
export interface ApiError {
  error: { code: string; message: string; fields?: Record<string, string> };
  slots?: SlotsResponse;
  /** hosts are the others still free at the time asked for, when the person asked for no longer is. */
  hosts?: HostCard[];
}

export type BookingResult =
  | { kind: "booked"; booking: CreatedBooking }
  | { kind: "taken"; message: string; slots: SlotsResponse | null; hosts: HostCard[] }
  | { kind: "invalid"; message: string; fields: Record<string, string> }
  | { kind: "refused"; message: string }
  | { kind: "failed" };

/** CancellationView is what GET and POST /api/bookings/cancel answer. */
export interface CancellationView {
  service: string;
  start: string;
  end: string;
  timeZone: string;
  status: "confirmed" | "cancelled" | "started";
  /** movable says whether the booking may still move to another time. */
  movable: boolean;
  meeting?: Meeting;
  /** host is who takes the call: a move offers their times. */
  host?: HostCard;
}

export type CancellationResult =
  | { kind: "found"; booking: CancellationView }
  | { kind: "notFound" }
  | { kind: "started"; message: string }
  | { kind: "failed" };

const jsonHeaders = { Accept: "application/json", "Content-Type": "application/json" };

/** postBooking books a slot; every outcome the visitor can act on is a result, not an exception. */
export async function postBooking(req: BookingRequest): Promise<BookingResult> {
  let res: Response;
  try {
    res = await fetch("/api/bookings", { method: "POST", headers: jsonHeaders, body: JSON.stringify(req) });
  } catch {
    return { kind: "failed" };
  }
  if (res.status === 201) {
    const body = (await res.json()) as { booking: CreatedBooking };
    return { kind: "booked", booking: body.booking };
  }
  return refusal(res);
}

/** refusal reads a booking or a move that was refused. */
async function refusal(res: Response): Promise<Exclude<BookingResult, { kind: "booked" }>> {
  const body = (await res.json().catch(() => null)) as ApiError | null;
  if (res.status === 409 && body?.slots) return { kind: "taken", message: body.error.message, slots: body.slots, hosts: body.hosts ?? [] };
  if ((res.status === 409 || res.status === 429) && body) return { kind: "refused", message: body.error.message };
  if (res.status === 422 && body) return { kind: "invalid", message: body.error.message, fields: body.error.fields ?? {} };
  return { kind: "failed" };
}

/** MoveResult is what a move to another time came to. */
export type MoveResult = Exclude<BookingResult, { kind: "booked" }> | { kind: "moved"; booking: CreatedBooking } | { kind: "notFound" };

/** postReschedule moves the booking of a cancel link's token to start. */
export async function postReschedule(token: string, start: string, lang: Lang): Promise<MoveResult> {
  let res: Response;
  try {
    res = await fetch("/api/bookings/reschedule", { method: "POST", headers: jsonHeaders, body: JSON.stringify({ token, start, lang }) });
  } catch {
    return { kind: "failed" };
  }
  if (res.ok) return { kind: "moved", booking: ((await res.json()) as { booking: CreatedBooking }).booking };
  if (res.status === 404) return { kind: "notFound" };
  return refusal(res);
}

async function cancellation(res: Response): Promise<CancellationResult> {
  if (res.ok) return { kind: "found", booking: ((await res.json()) as { booking: CancellationView }).booking };
  if (res.status === 404) return { kind: "notFound" };
  if (res.status === 409) {
    const body = (await res.json().catch(() => null)) as ApiError | null;
    return { kind: "started", message: body?.error.message ?? "" };
  }
  return { kind: "failed" };
}

/** fetchCancellation looks up the booking that a cancel link's token may cancel. */
export async function fetchCancellation(token: string, lang: Lang): Promise<CancellationResult> {
  try {
    const q = new URLSearchParams({ token, lang });
    return await cancellation(await fetch(`/api/bookings/cancel?${q.toString()}`, { headers: { Accept: "application/json" } }));
  } catch {
    return { kind: "failed" };
  }
}

/** postCancellation cancels the booking, with why if the visitor said; cancelling twice is harmless. */
export async function postCancellation(token: string, lang: Lang, reason = ""): Promise<CancellationResult> {
  try {
    return await cancellation(
      await fetch("/api/bookings/cancel", { method: "POST", headers: jsonHeaders, body: JSON.stringify({ token, lang, reason }) }),
    );
  } catch {
    return { kind: "failed" };
  }
}
