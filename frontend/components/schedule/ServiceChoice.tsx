import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLocation } from "react-router-dom";
import { useLocalPath } from "../../lib/lang";
import { startOver } from "./draft";
import { useChosenHost, type HostCard } from "./hosts";
import { featureKeys, inServiceOrder, serviceKeys, serviceMinutes, type StepState, withHost } from "./services";

/** ServiceChoice is step 1: the two consultation types, each leading to its step 2. */
export function ServiceChoice({ hosts = [] }: { hosts?: HostCard[] }) {
  const { t } = useTranslation();
  const to = useLocalPath();
  const heading = useRef<HTMLHeadingElement>(null);
  const { state } = useLocation();
  // Coming back from step 2 by its link, keyboard and screen reader users land on this step's heading.
  const focusStep = (state as StepState | null)?.focusStep === true;
  useEffect(() => {
    if (focusStep) heading.current?.focus({ preventScroll: true });
  }, [focusStep]);
  // Back at the choice, a booking just made is behind the visitor: its step starts afresh.
  useEffect(startOver, []);
  // From a person's page (?with=<slug>): the consultations they take, each with them.
  const host = useChosenHost(hosts, null) ?? null;
  const person = host?.slug ?? null;
  const offered = host ? inServiceOrder(host.services ?? []) : serviceKeys;
  return (
    <section className="schedule-step" aria-labelledby="schedule-services-title">
      <h2 id="schedule-services-title" ref={heading} tabIndex={-1}>
        {t("schedule.services.title")}
      </h2>
      <ul className="consult-grid card-grid">
        {offered.map((service) => (
          <li key={service} className="consult-card card">
            <h3 id={`consult-${service}`}>{t(`schedule.services.${service}.title`)}</h3>
            <p className="consult-meta">
              <span className="tag">{t("schedule.services.minutes", { count: serviceMinutes(service) })}</span>
              <span className="tag tag-free">{t("schedule.services.free")}</span>
            </p>
            <p>{t(`schedule.services.${service}.description`)}</p>
            <ul className="checklist">
              {featureKeys[service].map((f) => (
                <li key={f}>{t(`schedule.services.${service}.features.${f}`)}</li>
              ))}
            </ul>
            <Link className="button button-primary consult-choose" to={withHost(to(`/schedule/${service}`), person)} state={{ focusStep: true } satisfies StepState}>
              {t(`schedule.services.${service}.choose`)}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
