import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import type { CreatedBooking } from "../components/schedule/api";
import { HostFact, MeetingFact, ServiceFact, TimeFact } from "../components/schedule/Facts";
import { BookingArea } from "../components/schedule/BookingArea";
import { ContactLink, Problem } from "../components/schedule/Intro";
import type { ServiceKey } from "../components/schedule/services";
import { LinkedBookingPage, LinkedBookingProblem, type LinkedPanelProps } from "../components/schedule/LinkedBookingPage";
import { useBookingChunk } from "../components/schedule/useBookingChunk";
import { useZoneCatalog, zoneCatalog } from "../components/schedule/zones";
import { useLang, useLocalPath } from "../lib/lang";
import type { PageProps } from "./types";

/**
 * RescheduleBooking is where "choose another time" leads, from the
 * confirmation and reminder emails and from the cancel page
 * (/schedule/reschedule?token=...): the booking as it stands, then the
 * same time step as a booking's, for the same consultation, in the
 * visitor's language and zone. The page is the same for every booking; the
 * booking is fetched in the browser.
 */
export default function RescheduleBooking(_: PageProps) {
  return <LinkedBookingPage kind="reschedule" Panel={ReschedulePanel} />;
}

function ReschedulePanel({ lang, token, state }: LinkedPanelProps) {
  const { t } = useTranslation();
  const to = useLocalPath();
  const [moved, setMoved] = useState<CreatedBooking | null>(null);
  const catalog = useZoneCatalog(lang);

  if (state.kind !== "found") {
    return (
      <LinkedBookingProblem
        state={state}
        started={t("booking.reschedule.started")}
        failed={<Problem text={t("booking.reschedule.failed")} />}
      />
    );
  }

  const b = state.booking;
  const service = b.service as ServiceKey;
  if (b.status !== "confirmed" || !b.movable) {
    const why =
      b.status === "cancelled"
        ? t("booking.reschedule.cancelled")
        : b.status === "started"
          ? t("booking.reschedule.started")
          : t("booking.reschedule.tooLate");
    return (
      <div className="notice notice-problem">
        <p role="status">{why}</p>
        {b.status === "cancelled" ? (
          <Link className="button button-primary" to={to("/schedule")}>
            {t("booking.cancel.rebook")}
          </Link>
        ) : (
          <ContactLink className="button button-secondary" />
        )}
      </div>
    );
  }
  return (
    <>
      {moved ? null : (
      <section className="schedule-step" aria-labelledby="reschedule-current">
        <h2 id="reschedule-current">{t("booking.reschedule.current")}</h2>
        <dl className="booking-facts">
          <ServiceFact service={service} />
          {b.host ? <HostFact host={b.host} /> : null}
          <TimeFact label={t("booking.cancel.when")} start={b.start} timeZone={b.timeZone} catalog={catalog} />
          {b.meeting ? <MeetingFact meeting={b.meeting} /> : null}
        </dl>
      </section>
      )}
      <MoveStep service={service} token={token} timeZone={b.timeZone} previous={b.start} moved={moved} onMoved={setMoved} person={b.host?.slug ?? null} />
    </>
  );
}

/** MoveStep is the booking's time step, moving this booking rather than making a new one, and then its confirmation. */
function MoveStep({
  service,
  token,
  timeZone,
  previous,
  moved,
  onMoved,
  person,
}: {
  service: ServiceKey;
  token: string;
  timeZone: string;
  /** previous is the start the booking had before the move. */
  previous: string;
  moved: CreatedBooking | null;
  onMoved: (b: CreatedBooking) => void;
  /** person is the booking's host, whose times a move offers. */
  person: string | null;
}) {
  const { t } = useTranslation();
  const lang = useLang();
  const [attempt, setAttempt] = useState(0);
  // The visitor's zone is the one they booked in, unless their device has moved.
  // A booking with a host moves within that host's times.
  const chunk = useBookingChunk(service, lang, attempt, () => timeZone, person);
  const { ready } = chunk;
  if (moved) {
    if (!ready) return null;
    const { Confirmation } = ready.module;
    return <Confirmation booking={moved} catalog={zoneCatalog(ready.cldr)} moved previous={previous} />;
  }
  return (
    <section className="schedule-step" aria-labelledby="reschedule-time-title">
      <h2 id="reschedule-time-title">
        {t("schedule.time.title")}
      </h2>
      <p>{t("booking.reschedule.pick")}</p>
      <BookingArea
        service={service}
        chunk={chunk}
        onRetry={() => setAttempt((n) => n + 1)}
        onBooked={() => undefined}
        move={{ token, onMoved }}
        person={person}
      />
    </section>
  );
}
