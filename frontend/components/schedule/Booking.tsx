// The booking itself, a chunk of its own loaded when the time step opens:
// the calendar, the times, the time zone picker, the details form and the
// confirmation. It needs the visitor's zone and clock, so the browser alone
// renders it, in the space the server's frame keeps for it.
import { startTransition, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { isolate } from "../../lib/bidi";
import { useLang } from "../../lib/lang";
import type { CreatedBooking } from "./api";
import { Calendar } from "./Calendar";
import { Details } from "./Details";
import { HostOffers } from "./HostOffers";
import type { HostCard } from "./hosts";
import { Loading, TimesError } from "./Intro";
import { MoveForm } from "./MoveForm";
import { draftOf, updateDraft } from "./draft";
import { daysAhead, type ServiceKey } from "./services";
import { Times } from "./Times";
import { addDays, type CivilDate, type Month } from "./dates";
import { fetchOpenDays, type OpenDays, type Slot, type SlotsResponse } from "./slots";
import { monthOf } from "./time";
import { ZonePicker } from "./ZonePicker";
import { utcZone, type ZoneCatalog } from "./zones";

export { Confirmation } from "./Confirmation";
// The time step names the zones with the catalog it gets from here, so
// that the page's own chunks carry none of it.
export { zoneCatalog } from "./zones";

export interface BookingProps {
  service: ServiceKey;
  catalog: ZoneCatalog;
  weekdaysShort: string[];
  /** detected is the zone of the visitor's device. */
  detected: string;
  /** zone is the zone to show first: the one chosen before (a language switch), else the device's. */
  zone: string;
  /** prefetched are the open days in that zone, requested while this chunk loaded. */
  prefetched: Promise<OpenDays>;
  onBooked: (b: CreatedBooking, email: string) => void;
  /** move, when set, moves the booking of a cancel link's token instead of making a new one. */
  move?: { token: string; onMoved: (b: CreatedBooking) => void };
  /** person restricts the times to one host (their slug), and books with them. */
  person?: string | null;
}

/** Booking is the date, time and details of a consultation, in the visitor's zone. */
export function Booking({ service, catalog, weekdaysShort, detected, zone: initialZone, prefetched, onBooked, move, person = null }: BookingProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const draft = draftOf(service);
  const [zone, setZone] = useState(() => catalog.canonical(initialZone));
  const [attempt, setAttempt] = useState(0);
  // The open days, kept while fresh ones load (another zone, a retry), so
  // that the picker, and the focus in it, stay.
  const [status, setStatus] = useState<"loading" | "error" | "ready">("loading");
  const [openDays, setOpenDays] = useState<Map<CivilDate, Slot[]> | null>(null);
  const [today, setToday] = useState<CivilDate | null>(null);
  const [month, setMonth] = useState<Month | null>(null);
  const [date, setDate] = useState<CivilDate | null>(draft.date ?? null);
  const [slot, setSlot] = useState<Slot | null>(draft.slot ?? null);
  const [notice, setNotice] = useState("");
  // Whom else the time lost to another visitor may still be booked with.
  const [offers, setOffers] = useState<{ hosts: HostCard[]; slot: Slot; date: CivilDate } | null>(null);
  // The day and time chosen, for a reload of the times to keep them while they are still open.
  const chosen = useRef({ date, slot });
  useEffect(() => {
    chosen.current = { date, slot };
    updateDraft(service, { date: date ?? undefined, slot: slot ?? undefined });
  }, [service, date, slot]);
  const first = useRef(true);

  // Loads every bookable day at once, again when the zone changes or the times go stale.
  // biome-ignore lint/correctness/useExhaustiveDependencies(attempt): a retry (attempt counts them) loads again
  useEffect(() => {
    const abort = new AbortController();
    // The first load was started with the chunk; any later one is fetched here.
    const request = first.current ? prefetched : fetchOpenDays(service, zone, lang, abort.signal, person);
    first.current = false;
    setStatus("loading");
    request
      .then(({ first: from, days }) => {
        if (abort.signal.aborted) return;
        const open = (d: CivilDate | null) => !!d && d >= from && (days.get(d)?.length ?? 0) > 0;
        const kept = chosen.current;
        const day = open(kept.date) ? kept.date! : ([...days.keys()].find((d) => open(d)) ?? from);
        const time = kept.slot && days.get(day)?.some((s) => s.start === kept.slot?.start) ? kept.slot : null;
        // The calendar and the day's times are built in a transition, without holding the main thread.
        startTransition(() => {
          setToday(from);
          setOpenDays(days);
          setStatus("ready");
          setDate(day);
          setSlot(time);
          setMonth(monthOf(day));
        });
      })
      .catch((err: unknown) => {
        if (abort.signal.aborted) return;
        console.warn("Could not load the available times.", err);
        setStatus("error");
      });
    return () => abort.abort();
  }, [service, zone, lang, attempt, prefetched, person]);

  const days = openDays ?? new Map<CivilDate, Slot[]>();
  const slotsOf = (d: CivilDate) => days.get(d) ?? [];
  const hasSlots = (d: CivilDate) => slotsOf(d).length > 0;
  const next = date ? ([...days.keys()].sort().find((d) => d > date && hasSlots(d)) ?? null) : null;

  function choose(d: CivilDate) {
    setDate(d);
    setMonth(monthOf(d));
    if (slot && !slotsOf(d).some((s) => s.start === slot.start)) setSlot(null);
  }

  function merge(fresh: SlotsResponse | null) {
    if (!fresh || catalog.canonical(fresh.timeZone) !== zone) {
      setAttempt((n) => n + 1);
      return;
    }
    setOpenDays((prev) => {
      if (!prev) return prev;
      const updated = new Map(prev);
      for (const d of fresh.days) updated.set(d.date, d.slots);
      return updated;
    });
  }

  const shown = catalog.zone(zone);
  const note =
    shown.id === catalog.canonical(utcZone)
      ? t("schedule.time.zoneNoteUtc")
      : shown.generic
        ? t("schedule.time.zoneNote", { city: isolate(shown.city), zone: isolate(shown.generic) })
        : t("schedule.time.zoneNoteCity", { city: isolate(shown.city) });
  // Until the times arrive, the placeholder alone holds the space kept for
  // the booking: nothing appears there only to be pushed down a moment later.
  const failed = <TimesError onRetry={() => setAttempt((n) => n + 1)} />;
  const loading = <Loading />;
  if (!openDays || !today || !month) return status === "error" ? failed : loading;
  return (
    <>
      <div className="picker">
        <Calendar
          month={month}
          onMonth={setMonth}
          first={today}
          last={addDays(today, daysAhead + 1)}
          today={today}
          selected={date}
          onSelect={choose}
          hasSlots={hasSlots}
          weekdaysShort={weekdaysShort}
        />
        <div className="picker-side">
          <div className="zone-picker">
            <p className="zone-note">{note}</p>
            <ZonePicker
              catalog={catalog}
              value={zone}
              detected={detected}
              onChange={(z) => {
                setZone(z);
                setSlot(null);
                setNotice("");
                updateDraft(service, { zone: z, slot: undefined });
              }}
            />
          </div>
          <div className="notice" role="alert">
            {notice}
          </div>
          {offers && slot === null ? <HostOffers service={service} {...offers} /> : null}
          {status === "loading" ? (
            loading
          ) : status === "error" ? (
            failed
          ) : date ? (
            <Times
              date={date}
              slots={slotsOf(date)}
              zone={zone}
              selected={slot?.start ?? null}
              onSelect={(s) => {
                setSlot(s);
                setNotice("");
                setOffers(null);
              }}
              next={next}
              onNext={choose}
            />
          ) : null}
        </div>
      </div>
      {move ? (
        <MoveForm
          service={service}
          token={move.token}
          zone={zone}
          zoneCity={shown.city}
          slot={slot}
          onMoved={move.onMoved}
          onTaken={(message, fresh) => {
            setSlot(null);
            setNotice(message);
            merge(fresh);
          }}
        />
      ) : (
        <Details
          service={service}
          person={person}
          zone={zone}
          zoneCity={shown.city}
          slot={slot}
          onBooked={onBooked}
          onTaken={(message, fresh, others) => {
            // The time lost may still be booked with another host: it is offered with them.
            setOffers(slot && date && others.length > 0 ? { hosts: others, slot, date } : null);
            setSlot(null);
            setNotice(message);
            merge(fresh);
          }}
          onStale={(message) => {
            setSlot(null);
            setNotice(message);
            setAttempt((n) => n + 1);
          }}
        />
      )}
    </>
  );
}
