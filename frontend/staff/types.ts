import type { Lang } from "../lib/languages";

/** Folder is where a message is filed. */
export type Folder = "new" | "handled" | "spam";

export interface Message {
  ref: string;
  received: string;
  name: string;
  email: string;
  text: string;
  service: string;
  lang: string;
  handled: string | null;
  folder: Folder;
  spamReason: string;
  /** read says a member has opened it. */
  read: boolean;
}

export interface MessagesResponse {
  messages: Message[];
  next: string;
  counts: Record<Folder | "unread", number>;
}

export type BookingStatus = "upcoming" | "ongoing" | "past" | "noShow" | "cancelled";

export interface Booking {
  id: number;
  service: string;
  start: string;
  end: string;
  name: string;
  email: string;
  company: string;
  /** phone is the number to call, for a consultation by phone. */
  phone: string;
  /** meeting is the video room, for a video consultation. */
  meeting: string;
  topic: string;
  timeZone: string;
  lang: string;
  created: string;
  cancelled: string | null;
  /** cancelReason is why the visitor cancelled, in their words; "" when they did not say. */
  cancelReason: string;
  status: BookingStatus;
  /** bookedBy is the staff member who booked it for a caller, "" when the visitor did. */
  bookedBy: string;
  noShow: string | null;
  /** host is the slug of the person who takes the call ("" for the consultancy as a whole). */
  host: string;
}

export type View = "upcoming" | "past" | "cancelled";

export interface BookingsResponse {
  view: View;
  days?: { date: string; bookings: Booking[] }[];
  bookings?: Booking[];
  /** The cursor of the next page (?after=); "" after the last. */
  next: string;
  counts: Record<View, number>;
}

export interface Mail {
  ref: string;
  kind: string;
  to: string;
  subject: string;
  state: "failed" | "held" | "pending" | "sent" | "erased";
  attempts: number;
  lastError: string;
  /** reason says why a failed mail can never go as it is: "smtputf8" (its address needs SMTPUTF8, which the mail server does not offer). */
  reason?: "smtputf8";
  created: string;
  nextAttempt: string;
  sent: string | null;
}

/** MailText is a mail with what it says. */
export interface MailText extends Mail {
  replyTo: string;
  lang: string;
  text: string;
}

export interface AuditEntry {
  id: number;
  at: string;
  actor: string;
  action: string;
  subject: string;
  detail: string;
}

export interface Passkey {
  id: number;
  created: string;
  lastUsed: string | null;
  /** name is its member's name for it, "" for none. */
  name: string;
  /** browser and platform are what it was made on, "" when not known. */
  browser: string;
  platform: string;
}

/** Session is one of the member's open sessions. */
export interface Session {
  id: number;
  created: string;
  seen: string;
  browser: string;
  platform: string;
  /** current is the session of this browser. */
  current: boolean;
}

export interface Account {
  email: string;
  lang: Lang;
  passkeys: Passkey[];
  sessions: Session[];
}

export interface Person {
  email: string;
  /** The spellings stored under the address's key, as typed; the member confirms which are the person's. */
  addresses: { email: string; messages: number; bookings: number; mail: number }[];
  messages: { reference: string; received: string; name: string; email: string; message: string; flaggedAsSpam: boolean }[];
  bookings: { number: number; service: string; start: string; name: string; email: string; cancelled?: string }[];
  mail: { reference: string; kind: string; subject: string; created: string; state: string }[];
}
