import { useEffect, useSyncExternalStore } from "react";
import { useTranslation } from "react-i18next";
import site from "../../content/site.json";
import { bookedOf, subscribeBooked } from "../components/schedule/draft";
import { NoScriptNotice, Steps } from "../components/schedule/Intro";
import { ServiceChoice } from "../components/schedule/ServiceChoice";
import { serviceOfPath } from "../components/schedule/services";
import { TimeStep } from "../components/schedule/TimeStep";
import type { ScheduleData } from "../components/schedule/hosts";
import type { PageProps } from "./types";

/**
 * Schedule is the consultation booking: step 1 at /schedule chooses the
 * consultation, step 2 at /schedule/<service> its time. The step is the
 * path, so the back button, a shared link and a reload land on it. Once
 * booked, the page is finished: both steps done, and the confirmation, under
 * its own heading, in place of the introduction.
 */
export default function Schedule({ payload }: PageProps) {
  const { t } = useTranslation();
  const service = serviceOfPath(payload.path);
  const data = payload.data as ScheduleData | null;
  const hosts = data?.hosts ?? [];
  const booked = useSyncExternalStore(subscribeBooked, () => bookedOf(service), () => null);
  useEffect(() => {
    if (!booked) return;
    const title = document.title;
    document.title = t("meta.siteTitle", { page: t("schedule.confirmed.title"), name: site.name });
    return () => {
      document.title = title;
    };
  }, [booked, t]);
  return (
    <div className={`container schedule${booked ? " schedule-done" : service ? " schedule-time" : ""}`}>
      <header className="schedule-intro">
        {booked ? null : (
          <h1 id="schedule-title" tabIndex={-1}>
            {t("schedule.title")}
          </h1>
        )}
        {/*
          The introduction (free, how long, the invite and the confirmation)
          is on both steps, as a visitor may arrive at step 2 by a link,
          without having seen step 1; on a phone, step 2 leaves it out so
          that the calendar is on the first screen (schedule.css).
        */}
        {booked ? null : <p className="lead">{t("schedule.lead")}</p>}
        <Steps current={booked ? "done" : service ? 2 : 1} />
      </header>
      <NoScriptNotice />
      {service ? <TimeStep key={service} service={service} hosts={hosts} choice={!!data?.choice?.includes(service)} /> : <ServiceChoice hosts={hosts} />}
    </div>
  );
}
