import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { postCancellation } from "../components/schedule/api";
import { ContactLink } from "../components/schedule/Intro";
import { HostFact, MeetingFact, ServiceFact, TimeFact } from "../components/schedule/Facts";
import type { ServiceKey } from "../components/schedule/services";
import { LinkedBookingPage, LinkedBookingProblem, type LinkedPanelProps } from "../components/schedule/LinkedBookingPage";
import { useZoneCatalog } from "../components/schedule/zones";
import { useLocalPath } from "../lib/lang";
import type { PageProps } from "./types";

/**
 * CancelBooking is where the cancel link of the confirmation email leads
 * (/schedule/cancel?token=...): it shows the booking and cancels it after a
 * confirmation click. The page is the same for every booking; the booking
 * is fetched in the browser.
 */
export default function CancelBooking(_: PageProps) {
  return <LinkedBookingPage kind="cancel" Panel={CancelPanel} />;
}

function CancelPanel({ lang, token, state, setState }: LinkedPanelProps) {
  const { t } = useTranslation();
  const to = useLocalPath();
  const [busy, setBusy] = useState(false);
  const [justCancelled, setJustCancelled] = useState(false);
  const catalog = useZoneCatalog(lang);
  const outcome = useRef<HTMLParagraphElement>(null);
  const reason = useRef<HTMLTextAreaElement>(null);

  useEffect(() => {
    if (justCancelled) outcome.current?.focus();
  }, [justCancelled]);

  async function cancel() {
    if (busy) return;
    setBusy(true);
    const r = await postCancellation(token, lang, reason.current?.value.trim() ?? "");
    setBusy(false);
    if (r.kind === "found") setJustCancelled(true);
    setState(r);
  }

  if (state.kind !== "found") {
    return (
      <LinkedBookingProblem
        state={state}
        started={t("booking.cancel.started")}
        failed={
          <div className="notice" role="alert">
            <p>{t("booking.cancel.failed")}</p>
            <ContactLink className="button button-secondary" />
          </div>
        }
      />
    );
  }

  const b = state.booking;
  const service = b.service as ServiceKey;
  return (
    <section className="schedule-step" aria-labelledby="cancel-details">
      <dl className="booking-facts" id="cancel-details">
        <ServiceFact service={service} />
        {b.host ? <HostFact host={b.host} /> : null}
        <TimeFact label={t("booking.cancel.when")} start={b.start} timeZone={b.timeZone} catalog={catalog} />
        {b.meeting && b.status === "confirmed" ? <MeetingFact meeting={b.meeting} /> : null}
      </dl>
      {b.status === "confirmed" ? (
        <div className="field cancel-reason">
          <label htmlFor="cancel-reason">{t("booking.cancel.reason")}</label>
          <textarea id="cancel-reason" ref={reason} rows={3} maxLength={500} dir="auto" aria-describedby="cancel-reason-hint" />
          <p className="field-hint" id="cancel-reason-hint">
            {t("booking.cancel.reasonHint")}
          </p>
        </div>
      ) : null}
      {b.status === "confirmed" ? (
        <div className="actions">
          <button type="button" className="button button-primary cancel-confirm" aria-disabled={busy || undefined} onClick={() => void cancel()}>
            {busy ? t("booking.cancel.cancelling") : t("booking.cancel.confirm")}
          </button>
          <Link className="button button-secondary" to={to("/")}>
            {t("booking.cancel.keep")}
          </Link>
          {b.movable ? (
            <Link className="button button-secondary" to={`${to("/schedule/reschedule")}?token=${encodeURIComponent(token)}`}>
              {t("booking.cancel.moveInstead")}
            </Link>
          ) : null}
        </div>
      ) : (
        <>
          <p ref={outcome} tabIndex={-1} className="cancel-outcome" role="status">
            {b.status === "cancelled"
              ? justCancelled
                ? t("booking.cancel.done")
                : t("booking.cancel.already")
              : t("booking.cancel.started")}
          </p>
          <p>
            <Link className="button button-primary" to={to("/schedule")}>
              {t("booking.cancel.rebook")}
            </Link>
          </p>
        </>
      )}
    </section>
  );
}
