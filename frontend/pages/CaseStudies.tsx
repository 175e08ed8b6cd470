import { useTranslation } from "react-i18next";
import { BookingCall } from "../components/article";
import { StudyCards, Testimonials, type StudySummary, type Testimonial } from "../components/work";
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
      <BookingCall lang={lang} title={t("blog.cta.title")} text={t("home.contact.bookLead")} button={t("home.contact.book")} wide />
    </>
  );
}
