// What a visitor has chosen and typed on a time step, kept in memory for the
// life of the page: switching language re-renders the step from scratch (a
// new route), and must not lose the chosen time or the typed name. Nothing
// here is stored in the browser or sent anywhere before the visitor books.
import type { CreatedBooking } from "./api";
import type { ServiceKey } from "./services";
import type { CivilDate } from "./dates";
import type { Slot } from "./slots";

/** DetailField is a field of the details form. */
export type DetailField = "name" | "email" | "phone" | "company" | "topic";

/** Booked is a booking just made, which the step shows as its confirmation. */
export interface Booked {
  booking: CreatedBooking;
  email: string;
}

/** Draft is one service's booking in progress. */
export interface Draft {
  /** zone is the zone the visitor chose, when not the detected one. */
  zone?: string;
  date?: CivilDate;
  slot?: Slot;
  fields: Partial<Record<DetailField, string>>;
  booked?: Booked;
}

const drafts = new Map<ServiceKey, Draft>();
const listeners = new Set<() => void>();

/** draftOf returns a service's draft, the same object until it is cleared. */
export function draftOf(service: ServiceKey): Draft {
  let d = drafts.get(service);
  if (!d) {
    d = { fields: {} };
    drafts.set(service, d);
  }
  return d;
}

/** updateDraft changes a service's draft; a change of its booking is announced to subscribers. */
export function updateDraft(service: ServiceKey, change: Partial<Draft>): void {
  const d = draftOf(service);
  const bookedChanged = "booked" in change && change.booked !== d.booked;
  Object.assign(d, change);
  if (bookedChanged) for (const l of listeners) l();
}

/** bookedOf returns the booking just made for a service, if any (for useSyncExternalStore). */
export function bookedOf(service: ServiceKey | null): Booked | null {
  return (service && drafts.get(service)?.booked) || null;
}

/** subscribeBooked calls fn whenever a service's booking changes. */
export function subscribeBooked(fn: () => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/**
 * startOver forgets the bookings just made: the visitor has gone back to the
 * choice of consultation, and a step reached again starts afresh (the typed
 * name and email stay, for the next booking).
 */
export function startOver(): void {
  let changed = false;
  for (const d of drafts.values()) {
    if (d.booked) changed = true;
    d.booked = undefined;
  }
  if (changed) for (const l of listeners) l();
}
