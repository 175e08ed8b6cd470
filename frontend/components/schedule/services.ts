// Named imports: the bundle takes these fields of the file alone, not the
// weekly hours, closed dates or staff addresses that only the server reads.
import { daysAhead as declaredDaysAhead, services, timeZone } from "../../../content/availability.json";
import { splitPath } from "../../lib/languages";

/** The consultation types, in the order step 1 shows them (keys of content/availability.json). */
export const serviceKeys = ["discovery", "strategy"] as const;
export type ServiceKey = (typeof serviceKeys)[number];

/** featureKeys names each service's four bullets (schedule.services.<key>.features.<feature>). */
export const featureKeys: Record<ServiceKey, readonly string[]> = {
  discovery: ["goals", "expert", "fit", "next"],
  strategy: ["question", "review", "options", "advice"],
};

/** serviceMinutes is a service's length, as the consultancy declares it. */
export function serviceMinutes(service: ServiceKey): number {
  return services[service].minutes;
}

/** MeetingKind is how a consultation happens: a video call, or a call to the visitor's phone. */
export type MeetingKind = "video" | "phone";

/** meetingOf says how a service's consultations happen, as content/availability.json declares it: "either" lets the visitor choose. */
export function meetingOf(service: ServiceKey): MeetingKind | "either" | null {
  const declared: { meeting?: { type: string } } = services[service];
  const kind = declared.meeting?.type;
  if (kind === "phone-or-video") return "either";
  return kind === "video" || kind === "phone" ? kind : null;
}

/** inServiceOrder keeps the services named, in step 1's order. */
export function inServiceOrder(names: readonly string[]): ServiceKey[] {
  return serviceKeys.filter((s) => names.includes(s));
}

/** hostParam is the query parameter that books with one person: /schedule/discovery?with=samira-haddad (here, apart from the host picker, so that a person page links with it without loading that module and its strings). */
export const hostParam = "with";

/** withHost is the address of a booking page that books with slug. */
export function withHost(path: string, slug: string | null): string {
  return slug ? `${path}?${new URLSearchParams({ [hostParam]: slug }).toString()}` : path;
}

/** hostZone is the consultancy's IANA zone. */
export const hostZone: string = timeZone;

/** daysAhead is how many days after today can still be booked. */
export const daysAhead: number = declaredDaysAhead;

function isService(value: string): value is ServiceKey {
  return (serviceKeys as readonly string[]).includes(value);
}

/** serviceOfPath returns the service whose step 2 a path shows (/fr/schedule/strategy), or null for step 1. */
export function serviceOfPath(path: string): ServiceKey | null {
  const { rest } = splitPath(path);
  const slug = rest.replace(/^\/schedule\/?/, "");
  return isService(slug) ? slug : null;
}

/** StepState is the history state of a move between the steps by their own links: the new step takes the focus. */
export interface StepState {
  focusStep: boolean;
}
