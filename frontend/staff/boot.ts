import { defaultLang, isLang, type Lang } from "../lib/languages";

/** Me is the signed-in staff member. */
export interface Me {
  email: string;
  lang: Lang;
}

/** LinkState is what a one-time link (an invitation, a mailed sign-in link) can still do. */
export type LinkState = "valid" | "used" | "expired" | "unknown" | "limited";

/** Boot is what the server writes into every workspace page: who is signed in, and the facts the pages show. */
export interface Boot {
  lang: Lang;
  /** name is the consultancy's. */
  name: string;
  /** zone is the consultancy's IANA time zone: the agenda's days and times are its own. */
  zone: string;
  me: Me | null;
  /** link is the state of the invitation or sign-in link the page was opened with. */
  link: LinkState | null;
}

export const bootElementId = "staff-data";

/** readBoot reads the page's boot data. */
export function readBoot(): Boot {
  const raw = JSON.parse(document.getElementById(bootElementId)?.textContent ?? "{}") as Partial<Boot>;
  return {
    lang: isLang(raw.lang) ? raw.lang : defaultLang,
    name: raw.name ?? "",
    zone: raw.zone ?? "UTC",
    me: raw.me ?? null,
    link: raw.link ?? null,
  };
}
