import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import site from "../../../content/site.json";
import { useLocalPath } from "../../lib/lang";

/**
 * Steps shows where the visitor is in the two booking steps; "done" once
 * booked, when both are completed.
 */
export function Steps({ current }: { current: 1 | 2 | "done" }) {
  const { t } = useTranslation();
  const step = (n: 1 | 2, label: string) => {
    const done = current === "done" || n < current;
    return (
      <li aria-current={current === n ? "step" : undefined} data-done={done ? "true" : undefined}>
        <span className="step-number" aria-hidden="true">
          {done ? <span className="done-mark" /> : n}
        </span>
        {label}
        {done ? <span className="visually-hidden"> ({t("schedule.steps.done")})</span> : null}
      </li>
    );
  };
  return (
    <ol className="schedule-steps" aria-label={t("schedule.steps.label")}>
      {step(1, t("schedule.steps.service"))}
      {step(2, t("schedule.steps.time"))}
    </ol>
  );
}

/** NoScriptNotice tells visitors without JavaScript that booking needs it, and how else to reach us. */
export function NoScriptNotice() {
  const { t } = useTranslation();
  const to = useLocalPath();
  return (
    <noscript>
      <div className="schedule-noscript">
        <p>{t("schedule.noscript.text")}</p>
        <p>
          <a href={`${to("/")}#contact`}>{t("schedule.noscript.form")}</a> {t("schedule.noscript.email")}{" "}
          <a href={`mailto:${site.email}`} dir="ltr">
            {site.email}
          </a>
        </p>
      </div>
    </noscript>
  );
}

/** ContactLink leads to the contact section of the home page, in the page's language. */
export function ContactLink({ className }: { className?: string }) {
  const { t } = useTranslation();
  const to = useLocalPath();
  return (
    <Link className={className} to={{ pathname: to("/"), hash: "#contact" }}>
      {t("schedule.time.contact")}
    </Link>
  );
}

/** Problem says why a booking link cannot do what it offers, with the way to reach the consultancy instead. */
export function Problem({ text }: { text: string }) {
  return (
    <div className="notice notice-problem">
      <p role="status">{text}</p>
      <ContactLink className="button button-secondary" />
    </div>
  );
}

/** Loading is the inline placeholder of a part of a step that is on its way. */
export function Loading() {
  const { t } = useTranslation();
  return (
    <p className="loading-inline" role="status">
      {t("loading")}
    </p>
  );
}

/** TimesError says that the open times could not be loaded, with a button to try again. */
export function TimesError({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="times-error" role="alert">
      <p>{t("schedule.times.error")}</p>
      <button type="button" className="button button-secondary" onClick={onRetry}>
        {t("schedule.times.retry")}
      </button>
    </div>
  );
}

/**
 * BookingPending stands where the booking's chunk goes until it is here
 * (useBookingChunk): the error with its retry, the placeholder once it is
 * on its way, or nothing before.
 */
export function BookingPending({ failed, started, onRetry }: { failed: boolean; started: boolean; onRetry: () => void }) {
  return failed ? <TimesError onRetry={onRetry} /> : started ? <Loading /> : null;
}
