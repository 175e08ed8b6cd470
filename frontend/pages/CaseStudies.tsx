import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { StudyCards, Testimonials, type StudySummary, type Testimonial } from "../components/work";
import { localPath } from "../lib/languages";
import type { PageProps } from "./types";

/** WorkListData is the list of case studies (handlers/work.go workListData). */
export interface WorkListData {
  studies: StudySummary[];
  testimonials: Testimonial[];
}

/** CaseStudies lists the case studies, what their clients said, and a call to talk. */
export default function CaseStudies({ payload }: PageProps) {
  const { t } = useTranslation();
  const data = payload.data as WorkListData;
  const lang = payload.lang;
  return (
    <>
      <div className="container page-intro">
        <h1 tabIndex={-1}>{t("work.title")}</h1>
        <p className="lead">{t("work.lead")}</p>
        <StudyCards lang={lang} studies={data.studies} headingLevel={2} eager={1} />
      </div>
      <Testimonials lang={lang} items={data.testimonials} titleId="voices-title" />
      <aside className="container post-cta" aria-labelledby="work-cta">
        <h2 id="work-cta">{t("blog.cta.title")}</h2>
        <p>{t("home.contact.bookLead")}</p>
        <Link className="button button-primary" to={localPath(lang, "/schedule")}>
          {t("home.contact.book")}
        </Link>
      </aside>
    </>
  );
}
