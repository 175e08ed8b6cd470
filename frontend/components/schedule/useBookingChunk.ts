import { startTransition, useEffect, useState } from "react";
import { loadCldr, type Cldr } from "#cldr";
import type { Lang } from "../../lib/languages";
import { detectZone } from "./dates";
import type { ServiceKey } from "./services";
import { fetchOpenDays, type OpenDays } from "./slots";

type BookingModule = typeof import("./Booking");

/** BookingChunk is what the time step needs, loaded in the browser: the booking's code, the zones' names, the open times. */
export interface BookingChunk {
  module: BookingModule;
  cldr: Cldr;
  /** detected is the zone of the visitor's device. */
  detected: string;
  /** zone is the zone shown first. */
  zone: string;
  prefetched: Promise<OpenDays>;
}

/**
 * useBookingChunk loads the booking's chunk with the zones' names in the
 * page's language, and requests the open times in the same moment, not
 * after. preferredZone, when it names one, is the zone shown first instead
 * of the device's (asked when loading starts, not watched); attempt counts
 * the visitor's retries.
 */
export function useBookingChunk(
  service: ServiceKey,
  lang: Lang,
  attempt: number,
  preferredZone?: () => string | undefined,
  /** person restricts the times to one host; undefined waits until it is known. */
  person: string | null | undefined = null,
) {
  const [ready, setReady] = useState<BookingChunk | null>(null);
  const [failed, setFailed] = useState(false);
  // The server's frame has nothing in the booking's space; the browser says it is loading.
  const [started, setStarted] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies(attempt): a retry (attempt counts them) loads again
  // biome-ignore lint/correctness/useExhaustiveDependencies(preferredZone): read when loading starts, not watched (see below)
  useEffect(() => {
    if (person === undefined) return;
    let live = true;
    const detected = detectZone();
    const shown = preferredZone?.() ?? detected;
    const prefetched = fetchOpenDays(service, shown, lang, undefined, person);
    prefetched.catch(() => undefined); // reported by the booking, which offers a retry
    setFailed(false);
    setStarted(true);
    Promise.all([import("./Booking"), loadCldr(lang)]).then(
      ([module, cldr]) => {
        if (!live) return;
        // The picker (a month of days, the zones) is built in a transition: React yields to the browser while it does.
        startTransition(() => setReady({ module, cldr, detected, zone: shown, prefetched }));
      },
      (err: unknown) => {
        if (!live) return;
        console.warn("Could not load the booking.", err);
        setFailed(true);
      },
    );
    return () => {
      live = false;
    };
    // preferredZone is read when loading starts: a zone picked later is the booking's own state.
  }, [service, lang, attempt, person]);
  return { ready, failed, started };
}
