// The contact form's fields and rules, the same as the server's
// (internal/contact): a handler test runs this file against the Go rules.

/** contactFields are the fields a visitor fills in, in the order of the form. */
export const contactFields = ["name", "email", "message", "service"] as const;
export type ContactField = (typeof contactFields)[number];
export type ContactValues = Record<ContactField, string>;

/** serviceValues are the service-interest choices; "" means none given. */
export const serviceValues = ["custom-software", "platform-engineering", "strategic-consulting", "not-sure"] as const;

/** honeypotField is hidden from people; bots that fill every input give themselves away. */
export const honeypotField = "website";
/** renderedAtField carries when the form was rendered (Unix milliseconds), for the minimum fill time. */
export const renderedAtField = "rendered_at";

export const limits = { nameMax: 100, emailMax: 254, messageMin: 10, messageMax: 5000 } as const;

/** errorKeys are the locale keys of each field's error. */
export const errorKeys = {
  name: "validation.name",
  email: "validation.email",
  message: "validation.message",
  service: "validation.service",
} as const satisfies Record<ContactField, string>;

export type FieldErrors = Partial<Record<ContactField, string>>;

/**
 * ContactFormState is the form after a post without JavaScript, as the
 * server puts it in the home page's payload (data.contact).
 */
export interface ContactFormState {
  status: "sent" | "invalid" | "error";
  /** values is what the visitor typed, kept unless the message was sent. */
  values?: Partial<ContactValues>;
  /** errors maps a field to the locale key of its error. */
  errors?: FieldErrors;
  /** reason is the locale key of why sending failed, when the visitor can act on it. */
  reason?: string;
}

// Go's strings.TrimSpace (unicode.IsSpace), which differs from String.prototype.trim.
const space = "\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const surroundingSpace = new RegExp(`^[${space}]+|[${space}]+$`, "g");
// Control characters are what these two find: the server refuses them (in a message, all but tab, line feed and carriage return).
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point
const control = /[\u0000-\u001f\u007f-\u009f]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point
const controlInText = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
// An RFC 5322 atom: printable ASCII but specials, or anything beyond ASCII.
const dotAtom = /^[!#$%&'*+\-/0-9=?A-Z^_`a-z{|}~\u0080-\uffff]+(\.[!#$%&'*+\-/0-9=?A-Z^_`a-z{|}~\u0080-\uffff]+)*$/;
const domainLabel = /^[\p{L}\p{Nd}\p{Mn}-]+$/u;

function trimSpace(s: string): string {
  return s.replace(surroundingSpace, "");
}

/** runes counts code points, as the server counts characters. */
function runes(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/** utf8Length counts the bytes of s in UTF-8, as the server measures the parts of an address. */
function utf8Length(s: string): number {
  let n = 0;
  for (const c of s) {
    const cp = c.codePointAt(0) ?? 0;
    n += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
  }
  return n;
}

/** normalize trims the fields and turns the message's line ends into "\n", as the server does before it checks them. */
export function normalize(v: ContactValues): ContactValues {
  return {
    name: trimSpace(v.name),
    email: trimSpace(v.email),
    message: trimSpace(v.message.replace(/\r\n?/g, "\n")),
    service: trimSpace(v.service),
  };
}

/** validEmail accepts a plain address ("a@example.com") whose domain has a dot and well-formed labels. */
export function validEmail(s: string): boolean {
  if (s === "" || runes(s) > limits.emailMax) return false;
  const at = s.lastIndexOf("@");
  if (at < 0) return false;
  const local = s.slice(0, at);
  const domain = s.slice(at + 1);
  if (!dotAtom.test(local) || !dotAtom.test(domain) || utf8Length(local) > 64 || !domain.includes(".")) return false;
  return domain
    .split(".")
    .every((label) => utf8Length(label) <= 63 && domainLabel.test(label) && !label.startsWith("-") && !label.endsWith("-"));
}

/** validateContact returns the locale key of every invalid field. */
export function validateContact(values: ContactValues): FieldErrors {
  const v = normalize(values);
  const errors: FieldErrors = {};
  const name = runes(v.name);
  if (name < 1 || name > limits.nameMax || control.test(v.name)) errors.name = errorKeys.name;
  if (!validEmail(v.email)) errors.email = errorKeys.email;
  const message = runes(v.message);
  if (message < limits.messageMin || message > limits.messageMax || controlInText.test(v.message)) errors.message = errorKeys.message;
  if (v.service !== "" && !(serviceValues as readonly string[]).includes(v.service)) errors.service = errorKeys.service;
  return errors;
}
