// The Unicode CLDR data of the time step, from the Unicode Consortium's own
// packages (cldr-bcp47, cldr-dates-full): the time zones and their current
// IANA names, and in the page's language the zones' cities and the short
// names of the weekdays. Each file is a chunk of its own, loaded in the
// browser when the time step opens, never with another page (the server
// bundle resolves "#cldr" to cldr.server.ts instead). The languages and
// their files are those of content/site.json ("virtual:cldr").
import loaders from "virtual:cldr";
import { defaultLang, type Lang } from "../../lib/languages";

/** Bcp47Zone is one time zone of CLDR's bcp47/timezone.json. */
export interface Bcp47Zone {
  _description?: string;
  /** _alias lists the zone's IANA names, CLDR's canonical one first (which may be a former name). */
  _alias?: string;
  /** _iana is the current IANA name, when it differs from the first alias. */
  _iana?: string;
  /** _region is the zone's region, when the key's first two letters are not it. */
  _region?: string;
  _deprecated?: boolean | string;
  /** _preferred names the key that replaces a deprecated one. */
  _preferred?: string;
}

/** Weekday keys in CLDR's order of the week, Sunday first. */
export const weekdayKeys = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"] as const;

/** Cldr is what the time step needs from CLDR in one language. */
export interface Cldr {
  lang: Lang;
  /** zones maps a CLDR time zone key ("usnyc") to its entry. */
  zones: Record<string, Bcp47Zone | string>;
  /** names is the "zone" tree of timeZoneNames.json: Region → City → { exemplarCity }. */
  names: unknown;
  /** weekdaysShort are the short stand-alone weekday names, Sunday first ("Su", "lu", "أحد"). */
  weekdaysShort: string[];
}

interface TimeZoneNamesFile {
  main: Record<string, { dates: { timeZoneNames: { zone: unknown } } }>;
}

interface GregorianFile {
  main: Record<string, { dates: { calendars: { gregorian: { days: { "stand-alone": { short: Record<string, string> } } } } } }>;
}

interface Bcp47File {
  keyword: { u: { tz: Record<string, Bcp47Zone | string> } };
}

const loaded = new Map<Lang, Cldr>();
const pending = new Map<Lang, Promise<Cldr>>();

/** loadCldr loads a language's CLDR data once; a failed load is tried again on the next call. */
export function loadCldr(lang: Lang): Promise<Cldr> {
  let p = pending.get(lang);
  if (!p) {
    const files = (loaders[lang] ?? loaders[defaultLang])!;
    p = Promise.all([import("cldr-bcp47/bcp47/timezone.json"), files.load()]).then(
      ([bcp47, [names, calendar]]) => {
        const tz = (bcp47.default as Bcp47File).keyword.u.tz;
        const zone = (names.default as TimeZoneNamesFile).main[files.locale]?.dates.timeZoneNames.zone;
        const short = (calendar.default as GregorianFile).main[files.locale]?.dates.calendars.gregorian.days["stand-alone"].short ?? {};
        const cldr: Cldr = { lang, zones: tz, names: zone, weekdaysShort: weekdayKeys.map((k) => short[k] ?? k) };
        loaded.set(lang, cldr);
        return cldr;
      },
    );
    p.catch(() => pending.delete(lang));
    pending.set(lang, p);
  }
  return p;
}

/** loadedCldr returns a language's CLDR data if it has been loaded. */
export function loadedCldr(lang: Lang): Cldr | undefined {
  return loaded.get(lang);
}
