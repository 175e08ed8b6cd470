import { useEffect, useRef, useState, useSyncExternalStore } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLocation } from "react-router-dom";
import { useLang, useLocalPath } from "../../lib/lang";
import { bookedOf, draftOf, subscribeBooked, updateDraft } from "./draft";
import { BookingArea } from "./BookingArea";
import { HostChoice, HostLine, hostsOf, useChosenHost, type HostCard } from "./hosts";
import { ContactLink, Loading } from "./Intro";
import { serviceMinutes, type ServiceKey, type StepState } from "./services";
import { useBookingChunk } from "./useBookingChunk";

/**
 * TimeStep is step 2, "Select Your Preferred Time", and once booked its
 * confirmation. The server renders its frame; the booking itself (calendar,
 * times, zone picker, details), which needs the visitor's zone and clock,
 * is a chunk of its own that the browser loads with the zones' names in the
 * page's language (CLDR), and shows in space kept for it. The open times
 * are requested at the same moment, not after.
 */
export function TimeStep({ service, hosts = [], choice = false }: { service: ServiceKey; hosts?: HostCard[]; choice?: boolean }) {
  const { t } = useTranslation();
  const lang = useLang();
  const to = useLocalPath();
  const heading = useRef<HTMLHeadingElement>(null);
  const section = useRef<HTMLElement>(null);
  const { state } = useLocation();
  const booked = useSyncExternalStore(subscribeBooked, () => bookedOf(service), () => null);
  const [attempt, setAttempt] = useState(0);
  // A person's link (?with=<slug>) offers that person's times, and books with them.
  const host = useChosenHost(hosts, service);
  const person = host === undefined ? undefined : (host?.slug ?? null);
  const chunk = useBookingChunk(service, lang, attempt, () => draftOf(service).zone, person);
  const { ready } = chunk;

  // Arriving from step 1 by its link, keyboard and screen reader users land
  // on this step's heading; on a phone the step comes to the top of the
  // screen, so that the calendar is on it (the page's title is above).
  const focusStep = (state as StepState | null)?.focusStep === true;
  useEffect(() => {
    if (!focusStep) return;
    if (window.matchMedia("(max-width: 30rem)").matches) section.current?.scrollIntoView({ block: "start" });
    heading.current?.focus({ preventScroll: true });
  }, [focusStep]);

  if (booked) {
    if (!ready) return <Loading />;
    const { Confirmation, zoneCatalog } = ready.module;
    return <Confirmation booking={booked.booking} email={booked.email} catalog={zoneCatalog(ready.cldr)} />;
  }
  return (
    <section ref={section} className="schedule-step" aria-labelledby="schedule-time-title">
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
      {host ? <HostLine host={host} service={service} others={hostsOf(hosts, service).length - 1} /> : null}
      {host === null && choice && hostsOf(hosts, service).length > 1 ? <HostChoice hosts={hostsOf(hosts, service)} service={service} /> : null}
      <BookingArea
        key={person ?? ""}
        service={service}
        person={person}
        chunk={chunk}
        onRetry={() => setAttempt((n) => n + 1)}
        onBooked={(booking, email) => {
          const { name, company } = draftOf(service).fields;
          // The next booking starts with the name and address, not the topic or the time.
          updateDraft(service, { booked: { booking, email }, date: undefined, slot: undefined, fields: { name, email, company } });
        }}
      />
      <p className="schedule-contact">
        <ContactLink className="button button-secondary" />
      </p>
    </section>
  );
}
