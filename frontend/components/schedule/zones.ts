// Time zones as people name them, in the page's language: the zone's city
// from CLDR ("New York", "Le Caire", "القاهرة") with its generic name from
// the browser's Intl ("heure de l’Est nord-américain"), the current IANA
// names only (Asia/Kolkata, never Asia/Calcutta). Browser only: Intl.
import { useEffect, useState } from "react";
import { loadCldr, loadedCldr, type Bcp47Zone, type Cldr } from "#cldr";
import type { Lang } from "../../lib/languages";
import { localeOf } from "./time";

/** utcZone is the IANA name under which UTC is offered. */
export const utcZone = "Etc/UTC";

/** Zone is one time zone as the picker shows it. */
export interface Zone {
  /** id is the current IANA name, as the slots and bookings API take it. */
  id: string;
  /** city is the zone's exemplar city in the page's language ("New York"), "UTC" for UTC. */
  city: string;
  /** generic is the zone's generic name in the page's language ("Eastern Time"), "" when the browser has none. */
  generic: string;
  /** country is the zone's country in the page's language, "" when it has none. */
  country: string;
  /** label is how the zone is named: "New York (Eastern Time)". */
  label: string;
  /** search is everything a visitor may type to find the zone, folded (see fold). */
  search: string;
}

/** ZoneCatalog names the time zones in one language. */
export interface ZoneCatalog {
  lang: Lang;
  /** canonical returns the current IANA name of a zone name, former ones included (Europe/Kiev: Europe/Kyiv). */
  canonical(id: string): string;
  /** zone describes one zone (any IANA name the browser knows). */
  zone(id: string): Zone;
  /** all lists every zone, sorted by label in the page's language (built on first use). */
  all(): Zone[];
}

interface Entry {
  id: string;
  aliases: string[];
  region: string;
  english: string;
}

/**
 * fold prepares text for a search that ignores case, accents and the
 * spelling variants of Arabic letters: "Zürich" and "zurich", "إسطنبول" and
 * "اسطنبول" meet.
 */
export function fold(s: string): string {
  return s
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .replace(/\u0671/g, "\u0627") // alef wasla
    .replace(/\u0649/g, "\u064a") // alef maksura: yeh
    .replace(/\u0629/g, "\u0647") // teh marbuta: heh
    .toLowerCase()
    .replace(/[\s’'`\-_/(),.:،]+/g, " ")
    .trim();
}

/** matches reports whether every word of a folded query is in a zone's search text. */
export function matches(zone: Zone, query: string): boolean {
  const words = query.split(" ").filter(Boolean);
  return words.every((w) => zone.search.includes(w));
}

/** entries lists the geographic zones and UTC of CLDR, with their current names. */
function entries(zones: Record<string, Bcp47Zone | string>): Entry[] {
  const out: Entry[] = [];
  for (const [key, z] of Object.entries(zones)) {
    if (typeof z === "string" || !z._alias || z._deprecated) continue;
    // Etc/GMT+5 and the like, Etc/GMT and Etc/Unknown are not places anyone lives in.
    if ((key.startsWith("utc") && key !== "utc") || key === "gmt" || key === "unk") continue;
    const aliases = z._alias.split(" ");
    out.push({
      id: z._iana ?? aliases[0]!,
      aliases,
      region: key === "utc" ? "" : (z._region ?? key.slice(0, 2)).toUpperCase(),
      english: z._description ?? "",
    });
  }
  return out;
}

/** cityOf looks a zone's exemplar city up in the timeZoneNames tree, under any of its names. */
function cityOf(names: unknown, aliases: string[]): string | undefined {
  for (const alias of aliases) {
    let node: unknown = names;
    for (const part of alias.split("/")) {
      node = node && typeof node === "object" ? (node as Record<string, unknown>)[part] : undefined;
    }
    const city = node && typeof node === "object" ? (node as { exemplarCity?: unknown }).exemplarCity : undefined;
    if (typeof city === "string") return city;
  }
  return undefined;
}

/** utcName is UTC's long name in the timeZoneNames tree ("temps universel coordonné"). */
function utcName(names: unknown): string {
  const utc = (names as { Etc?: { UTC?: { long?: { standard?: string } } } } | undefined)?.Etc?.UTC;
  return utc?.long?.standard ?? "";
}

/** genericName asks the browser for a zone's generic name ("Eastern Time"), "" when it has none. */
function genericName(locale: string, id: string, at: Date): string {
  for (const timeZoneName of ["longGeneric", "long"] as const) {
    try {
      const part = new Intl.DateTimeFormat(locale, { timeZone: id, timeZoneName })
        .formatToParts(at)
        .find((p) => p.type === "timeZoneName");
      // A browser without a name for the zone answers with its offset ("GMT+5:30").
      if (part && !/^(GMT|UTC)([+−-]|$)/.test(part.value)) return part.value;
    } catch {
      // Try the next width; an unknown zone has no name.
    }
  }
  return "";
}

/** knownToBrowser reports whether Intl accepts a zone name. */
function knownToBrowser(id: string): boolean {
  try {
    new Intl.DateTimeFormat(undefined, { timeZone: id });
    return true;
  } catch {
    return false;
  }
}

const catalogs = new Map<Lang, ZoneCatalog>();

/** zoneCatalog returns the zones of CLDR named in cldr's language (one catalog per language). */
export function zoneCatalog(cldr: Cldr): ZoneCatalog {
  const cached = catalogs.get(cldr.lang);
  if (cached) return cached;
  const locale = localeOf(cldr.lang);
  const list = entries(cldr.zones);
  const byName = new Map<string, Entry>();
  for (const e of list) for (const name of [e.id, ...e.aliases]) byName.set(name, e);
  // Deprecated keys name their replacement: their former names lead there too.
  for (const z of Object.values(cldr.zones)) {
    if (typeof z === "string" || !z._alias || !z._preferred) continue;
    const preferred = cldr.zones[z._preferred];
    const target = typeof preferred === "object" && preferred._alias ? byName.get(preferred._iana ?? preferred._alias.split(" ")[0]!) : undefined;
    if (target) for (const name of z._alias.split(" ")) if (!byName.has(name)) byName.set(name, target);
  }
  const regions = new Intl.DisplayNames([locale], { type: "region", fallback: "none" });
  const usable = new Map<Entry, string>();
  const cache = new Map<string, Zone>();
  const now = new Date();
  let sorted: Zone[] | null = null;

  // The current name, or a former one when this browser knows only that
  // (the API takes both): Europe/Kyiv needs tz data from 2022.
  function idOf(e: Entry): string {
    let id = usable.get(e);
    if (id === undefined) {
      id = [e.id, ...e.aliases].find(knownToBrowser) ?? e.id;
      usable.set(e, id);
    }
    return id;
  }

  function describe(name: string): Zone {
    const e = byName.get(name);
    const id = e ? idOf(e) : name;
    let zone = cache.get(id);
    if (zone) return zone;
    const names = e ? [e.id, ...e.aliases] : [name];
    const isUTC = e ? e.region === "" : name === "UTC";
    const generic = (isUTC && utcName(cldr.names)) || genericName(locale, id, now);
    const city = isUTC ? "UTC" : (cityOf(cldr.names, names) ?? names[0]!.slice(names[0]!.lastIndexOf("/") + 1).replace(/_/g, " "));
    let country = "";
    if (e?.region) {
      try {
        country = regions.of(e.region) ?? "";
      } catch {
        country = "";
      }
    }
    const label = generic && generic !== city ? `${city} (${generic})` : city;
    // The English place and the IANA names find a zone in any language.
    const search = fold([city, generic, country, e?.english ?? "", ...names.map((n) => n.replace(/_/g, " "))].join(" "));
    zone = { id, city, generic, country, label, search };
    cache.set(id, zone);
    return zone;
  }

  const catalog: ZoneCatalog = {
    lang: cldr.lang,
    canonical(name) {
      const e = byName.get(name);
      return e ? idOf(e) : name;
    },
    zone: describe,
    all() {
      if (!sorted) {
        const collator = new Intl.Collator(locale);
        sorted = list
          .filter((e) => knownToBrowser(idOf(e)))
          .map((e) => describe(e.id))
          .sort((a, b) => collator.compare(a.label, b.label));
      }
      return sorted;
    },
  };
  catalogs.set(cldr.lang, catalog);
  return catalog;
}

/**
 * useZoneCatalog returns the zone catalog of a language, loading its CLDR
 * data after the first render (null until then, and on the server).
 */
export function useZoneCatalog(lang: Lang): ZoneCatalog | null {
  const [cldr, setCldr] = useState<Cldr | null>(null);
  useEffect(() => {
    let live = true;
    const ready = loadedCldr(lang);
    if (ready) setCldr(ready);
    else
      loadCldr(lang).then(
        (c) => live && setCldr(c),
        (err: unknown) => console.warn("Could not load the names of the time zones.", err),
      );
    return () => {
      live = false;
    };
  }, [lang]);
  return cldr && cldr.lang === lang ? zoneCatalog(cldr) : null;
}
