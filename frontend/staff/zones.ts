// Time zones named as the public booking page names them, in the member's
// language: "Berlin (Central European Time)", "برلين (توقيت وسط أوروبا)",
// never a raw IANA id. The names come from the same CLDR chunks as the
// booking's time step (frontend/components/schedule/zones.ts), loaded on
// first use.
import { useZoneCatalog, type Zone } from "../components/schedule/zones";
import { useBoot } from "./hooks";

/** useZoneName returns a zone's name in the member's language; the IANA id until the names are loaded. */
export function useZoneName(): (zone: string) => string {
  const { lang } = useBoot();
  const catalog = useZoneCatalog(lang);
  return (zone) => (catalog && zone ? catalog.zone(zone).label : zone);
}

/** useZones lists every zone with its name in the member's language (the IANA ids until the names are loaded). */
export function useZones(fallback: string[]): Pick<Zone, "id" | "label">[] {
  const { lang } = useBoot();
  const catalog = useZoneCatalog(lang);
  return catalog ? catalog.all() : fallback.map((id) => ({ id, label: id }));
}
