import { useTranslation } from "react-i18next";
import type { PageProps } from "./types";

export default function Schedule(_: PageProps) {
  const { t } = useTranslation();
  return (
    <section className="container page-intro" aria-labelledby="schedule-title">
      <h1 id="schedule-title">{t("schedule.title")}</h1>
      <p className="lead">{t("schedule.lead")}</p>
    </section>
  );
}
