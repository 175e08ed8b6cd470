import { startTransition, useEffect, useId, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLocation } from "react-router-dom";
import { useLang, useLocalPath } from "../../lib/lang";
import { fetchSlots, type CreatedBooking, type Slot, type SlotsResponse } from "./api";
import { Calendar } from "./Calendar";
import { Confirmation } from "./Confirmation";
import { Details } from "./Details";
import { ContactLink } from "./Intro";
import { daysAhead, serviceMinutes, type ServiceKey, type StepState } from "./services";
import { Times } from "./Times";
import { addDays, daysFrom, dateIn, detectZone, monthOf, zoneCity, zoneLabel, zoneNames, type CivilDate, type Month } from "./time";

/** maxQueryDays is the most days one GET /api/slots may ask for. */
const maxQueryDays = 31;

/**
 * TimeStep is step 2, "Select Your Preferred Time": the date picker, the
 * times of the chosen day in the visitor's zone, the details form, and the
 * confirmation once booked. The server renders its frame; the picker, which
 * needs the visitor's zone and clock, appears after hydration in space kept
 * for it.
 */
export function TimeStep({ service }: { service: ServiceKey }) {
  const { t } = useTranslation();
  const to = useLocalPath();
  const heading = useRef<HTMLHeadingElement>(null);
  const { state } = useLocation();
  // The visitor's zone, known in the browser only: the picker appears once it is.
  const [browserZone, setBrowserZone] = useState<string | null>(null);
  const [booked, setBooked] = useState<{ booking: CreatedBooking; email: string } | null>(null);
  useEffect(() => {
    // Asking the browser for its zone is the page's first date formatting, which loads the locale data: kept out of the render.
    const zone = detectZone();
    // The picker (a month of days, some 400 zones) is built in a transition: React yields to the browser while it does.
    startTransition(() => setBrowserZone(zone));
  }, []);
  // Arriving from step 1 by its link, keyboard and screen reader users land on this step's heading.
  const focusStep = (state as StepState | null)?.focusStep === true;
  useEffect(() => {
    if (focusStep) heading.current?.focus({ preventScroll: true });
  }, [focusStep]);

  if (booked) return <Confirmation booking={booked.booking} email={booked.email} />;
  return (
    <section className="schedule-step" aria-labelledby="schedule-time-title">
      <p className="schedule-back">
        <Link to={to("/schedule")} state={{ focusStep: true } satisfies StepState}>
          <span className="back-arrow" aria-hidden="true" />
          {t("schedule.time.back")}
        </Link>
      </p>
      <h2 id="schedule-time-title" ref={heading} tabIndex={-1}>
        {t("schedule.time.title")}
      </h2>
      <p className="consult-meta">
        <strong>{t(`schedule.services.${service}.title`)}</strong>
        <span className="tag">{t("schedule.services.minutes", { count: serviceMinutes(service) })}</span>
        <span className="tag tag-free">{t("schedule.services.free")}</span>
      </p>
      <div className="booking-area">
        {browserZone ? (
          <SlotBooking
            service={service}
            initialZone={browserZone}
            onBooked={(booking, email) => setBooked({ booking, email })}
          />
        ) : null}
      </div>
      <p className="schedule-contact">
        <ContactLink className="button button-secondary" />
      </p>
    </section>
  );
}

type Load = { status: "loading" } | { status: "error" } | { status: "ready"; days: Map<CivilDate, Slot[]> };

/** SlotBooking runs in the browser only: it knows the visitor's zone and today. */
function SlotBooking({
  service,
  initialZone,
  onBooked,
}: {
  service: ServiceKey;
  initialZone: string;
  onBooked: (b: CreatedBooking, email: string) => void;
}) {
  const { t } = useTranslation();
  const lang = useLang();
  const zoneId = useId();
  const [zone, setZone] = useState(initialZone);
  const [attempt, setAttempt] = useState(0);
  const [load, setLoad] = useState<Load>({ status: "loading" });
  const [today, setToday] = useState(() => dateIn(new Date(), zone));
  const [month, setMonth] = useState<Month>(() => monthOf(today));
  const [date, setDate] = useState<CivilDate | null>(null);
  const [slot, setSlot] = useState<Slot | null>(null);
  const [notice, setNotice] = useState("");
  const last = addDays(today, daysAhead + 1);
  const zones = useMemo(() => zoneNames(zone), [zone]);
  // The day chosen, for a reload to keep it when it still has times.
  const chosenDate = useRef(date);
  useEffect(() => {
    chosenDate.current = date;
  }, [date]);

  // Loads every bookable day at once (about a month: one or two requests),
  // again when the zone changes or the times go stale.
  useEffect(() => {
    const abort = new AbortController();
    const first = dateIn(new Date(), zone);
    const end = addDays(first, daysAhead + 1);
    const windows: [CivilDate, number][] = [];
    for (let from = first; from <= end; from = addDays(from, maxQueryDays)) {
      windows.push([from, Math.min(maxQueryDays, daysFrom(from, end) + 1)]);
    }
    setLoad({ status: "loading" });
    Promise.all(windows.map(([from, n]) => fetchSlots(service, from, n, zone, lang, abort.signal)))
      .then((responses) => {
        const days = new Map<CivilDate, Slot[]>();
        for (const r of responses) for (const d of r.days) days.set(d.date, d.slots);
        const current = chosenDate.current;
        const keep = current && current >= first && (days.get(current)?.length ?? 0) > 0 ? current : null;
        const chosen = keep ?? [...days.keys()].find((d) => (days.get(d)?.length ?? 0) > 0) ?? first;
        // The calendar and the day's times are built in a transition, without holding the main thread.
        startTransition(() => {
          setToday(first);
          setLoad({ status: "ready", days });
          setDate(chosen);
          setMonth(monthOf(chosen));
        });
      })
      .catch((err: unknown) => {
        if (abort.signal.aborted) return;
        console.warn("Could not load the available times.", err);
        setLoad({ status: "error" });
      });
    return () => abort.abort();
  }, [service, zone, lang, attempt]);

  const days = load.status === "ready" ? load.days : new Map<CivilDate, Slot[]>();
  const slotsOf = (d: CivilDate) => days.get(d) ?? [];
  const hasSlots = (d: CivilDate) => slotsOf(d).length > 0;
  const next = date ? ([...days.keys()].sort().find((d) => d > date && hasSlots(d)) ?? null) : null;

  function choose(d: CivilDate) {
    setDate(d);
    setMonth(monthOf(d));
    if (slot && !slotsOf(d).some((s) => s.start === slot.start)) setSlot(null);
  }

  function merge(fresh: SlotsResponse | null) {
    if (!fresh || fresh.timeZone !== zone) {
      setAttempt((n) => n + 1);
      return;
    }
    setLoad((prev) => {
      if (prev.status !== "ready") return prev;
      const updated = new Map(prev.days);
      for (const d of fresh.days) updated.set(d.date, d.slots);
      return { status: "ready", days: updated };
    });
  }

  return (
    <>
      <div className="zone-picker">
        <p className="zone-note">{t("schedule.time.zoneNote", { zone: zoneLabel(lang, zone) })}</p>
        <label htmlFor={zoneId}>{t("schedule.time.zone")}</label>
        <select
          id={zoneId}
          value={zone}
          onChange={(e) => {
            setZone(e.target.value);
            setSlot(null);
            setNotice("");
          }}
        >
          {zones.map((z) => (
            <option key={z} value={z}>
              {zoneCity(z)}
            </option>
          ))}
        </select>
      </div>
      <div className="notice" role="alert">
        {notice}
      </div>
      {load.status === "loading" ? (
        <p className="loading-inline" role="status">
          {t("loading")}
        </p>
      ) : load.status === "error" ? (
        <div className="times-error" role="alert">
          <p>{t("schedule.times.error")}</p>
          <button type="button" className="button button-secondary" onClick={() => setAttempt((n) => n + 1)}>
            {t("schedule.times.retry")}
          </button>
        </div>
      ) : (
        <div className="picker">
          <Calendar
            month={month}
            onMonth={setMonth}
            first={today}
            last={last}
            today={today}
            selected={date}
            onSelect={choose}
            hasSlots={hasSlots}
          />
          {date ? (
            <Times
              date={date}
              slots={slotsOf(date)}
              zone={zone}
              selected={slot?.start ?? null}
              onSelect={(s) => {
                setSlot(s);
                setNotice("");
              }}
              next={next}
              onNext={choose}
            />
          ) : null}
        </div>
      )}
      <Details
        service={service}
        zone={zone}
        slot={slot}
        onBooked={onBooked}
        onTaken={(message, fresh) => {
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
    </>
  );
}
