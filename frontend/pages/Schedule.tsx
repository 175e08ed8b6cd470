import { useTranslation } from "react-i18next";
import { NoScriptNotice, Steps } from "../components/schedule/Intro";
import { ServiceChoice } from "../components/schedule/ServiceChoice";
import { serviceOfPath } from "../components/schedule/services";
import { TimeStep } from "../components/schedule/TimeStep";
import type { PageProps } from "./types";

/**
 * Schedule is the consultation booking: step 1 at /schedule chooses the
 * consultation, step 2 at /schedule/<service> its time. The step is the
 * path, so the back button, a shared link and a reload land on it.
 */
export default function Schedule({ payload }: PageProps) {
  const { t } = useTranslation();
  const service = serviceOfPath(payload.path);
  return (
    <div className="container schedule">
      <header className="schedule-intro">
        <h1 id="schedule-title">{t("schedule.title")}</h1>
        <p className="lead">{t("schedule.lead")}</p>
        <Steps current={service ? 2 : 1} />
      </header>
      <NoScriptNotice />
      {service ? <TimeStep key={service} service={service} /> : <ServiceChoice />}
    </div>
  );
}
