import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { useLocalPath } from "../../lib/lang";
import { withWholeValues } from "../../lib/values";
import type { CreatedBooking } from "./api";
import { HostFact, MeetingFact, ServiceFact, TimeFact } from "./Facts";
import { hostZone, type ServiceKey, type StepState } from "./services";
import type { ZoneCatalog } from "./zones";

export interface ConfirmationProps {
  booking: CreatedBooking;
  catalog: ZoneCatalog;
  /** email is the address the confirmation went to; a move does not know it. */
  email?: string;
  /** moved says that the booking was moved to this time, rather than made. */
  moved?: boolean;
  /** previous is a moved booking's start before the move, shown as what it was. */
  previous?: string;
}

/**
 * Confirmation is shown the moment a booking is committed (or moved), in
 * place of the steps: when, in both zones, how the meeting happens, and
 * what happens next. Its heading is the page's main heading, and takes the
 * focus.
 */
export function Confirmation({ booking, email, catalog, moved = false, previous }: ConfirmationProps) {
  const { t } = useTranslation();
  const to = useLocalPath();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus();
  }, []);
  const service = booking.service as ServiceKey;
  const newTab = <span className="visually-hidden"> {t("schedule.confirmed.newTab")}</span>;
  return (
    <section className="schedule-step booking-confirmed" aria-labelledby="booking-confirmed-title">
      <h1 id="booking-confirmed-title" ref={heading} tabIndex={-1}>
        <span className="done-mark" aria-hidden="true" />
        {moved ? t("booking.reschedule.doneTitle") : t("schedule.confirmed.title")}
      </h1>
      <p className="lead">
        {moved || !email ? t("booking.reschedule.doneLead") : withWholeValues((v) => t("schedule.confirmed.lead", v), { email })}
      </p>
      <dl className="booking-facts">
        <ServiceFact service={service} />
        {booking.host ? <HostFact host={booking.host} /> : null}
        <TimeFact label={t("schedule.confirmed.yourTime")} start={booking.start} timeZone={booking.timeZone} catalog={catalog} />
        <TimeFact label={t("schedule.confirmed.ourTime")} start={booking.start} timeZone={hostZone} catalog={catalog} />
        {previous ? (
          <TimeFact label={t("booking.reschedule.previous")} start={previous} timeZone={booking.timeZone} catalog={catalog} className="fact-previous" />
        ) : null}
        {booking.meeting ? <MeetingFact meeting={booking.meeting} /> : null}
      </dl>
      <div className="actions">
        <a className="button button-primary" href={booking.ics} download>
          {t("schedule.confirmed.download")}
        </a>
        <a className="button button-secondary" href={booking.calendar.google} target="_blank" rel="noopener noreferrer">
          {t("schedule.confirmed.google")}
          {newTab}
        </a>
        <a className="button button-secondary" href={booking.calendar.outlook} target="_blank" rel="noopener noreferrer">
          {t("schedule.confirmed.outlook")}
          {newTab}
        </a>
      </div>
      <h2>{t("schedule.confirmed.nextTitle")}</h2>
      <ol className="next-steps">
        <li>{t("schedule.confirmed.next.email")}</li>
        <li>{t("schedule.confirmed.next.prepare")}</li>
        {booking.reminderLead ? (
          <li>
            {booking.reminderLead.unit === "day"
              ? t("schedule.confirmed.next.reminder")
              : booking.reminderLead.unit === "days"
                ? t("schedule.confirmed.next.reminderDays", { count: booking.reminderLead.count })
                : t("schedule.confirmed.next.reminderHours", { count: booking.reminderLead.count })}
          </li>
        ) : null}
        <li>
          {booking.meeting?.kind === "video"
            ? t("schedule.confirmed.next.joinVideo")
            : booking.meeting?.kind === "phone"
              ? t("schedule.confirmed.next.joinPhone")
              : t("schedule.confirmed.next.join")}
        </li>
      </ol>
      <p>
        <Link to={to("/schedule")} state={{ focusStep: true } satisfies StepState}>
          {t("schedule.confirmed.another")}
        </Link>
      </p>
    </section>
  );
}
