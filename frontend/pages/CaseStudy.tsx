import { useId } from "react";
import { useTranslation } from "react-i18next";
import { ArticleHeader, BookingCall, Translations } from "../components/article";
import { Picture, proseSizes, type PictureData } from "../components/picture";
import { StudyCards, studyPath, type Result, type StudySummary } from "../components/work";
import { localPath, type Lang } from "../lib/languages";
import type { PageProps } from "./types";

/** StudyData is a case study's page (handlers/work.go studyData). */
export interface StudyData {
  title: string;
  description: string;
  client: string;
  sector: string;
  size: string;
  duration: string;
  stack: string[];
  results: Result[];
  quote: { text: string; name: string; role: string; company: string };
  cover: PictureData;
  html: string;
  translations: { lang: Lang; slug: string }[];
  more: StudySummary[];
}

/** CaseStudy is one case study: the client, the facts, the results, the story and the client's words. */
export default function CaseStudy({ payload }: PageProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const resultsId = useId();
  const moreId = useId();
  const study = payload.data as StudyData;
  const lang = payload.lang;
  return (
    <article className="container post study" aria-labelledby={titleId}>
      <ArticleHeader back={localPath(lang, "/work")} backText={t("work.all")}>
        <h1 id={titleId} tabIndex={-1}>
          {study.title}
        </h1>
        <p className="lead">{study.description}</p>
        <Translations label={t("work.translations")} versions={study.translations} path={studyPath} />
      </ArticleHeader>

      <Picture image={study.cover} sizes={proseSizes} priority className="post-cover" />

      <dl className="study-facts">
        {(
          [
            ["work.facts.client", study.client],
            ["work.facts.sector", study.sector],
            ["work.facts.size", study.size],
            ["work.facts.duration", study.duration],
          ] as const
        ).map(([key, fact]) => (
          <div key={key}>
            <dt>{t(key)}</dt>
            <dd>{fact}</dd>
          </div>
        ))}
        <div>
          <dt>{t("work.facts.stack")}</dt>
          <dd>
            <span dir="ltr">{study.stack.join(", ")}</span>
          </dd>
        </div>
      </dl>

      <section className="study-results" aria-labelledby={resultsId}>
        <h2 id={resultsId}>{t("work.results")}</h2>
        <ul className="card-grid">
          {study.results.map((r) => (
            <li key={r.label}>
              <strong>{r.value}</strong> {r.label}
            </li>
          ))}
        </ul>
      </section>

      {/* The server rendered and sanitized this HTML from the case study's Markdown (internal/markdown). */}
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: sanitized by the server, as said above */}
      <div className="prose post-body" dangerouslySetInnerHTML={{ __html: study.html }} />

      <figure className="study-quote">
        <blockquote>
          <p>{study.quote.text}</p>
        </blockquote>
        <figcaption>
          <strong>{study.quote.name}</strong>
          {t("work.separator")}
          {study.quote.role}
          {t("work.separator")}
          {study.quote.company}
        </figcaption>
      </figure>

      <BookingCall lang={lang} title={t("blog.cta.title")} text={t("home.contact.bookLead")} button={t("home.contact.book")} />

      {study.more.length > 0 && (
        <section aria-labelledby={moreId} className="study-more">
          <h2 id={moreId}>{t("work.more")}</h2>
          <StudyCards lang={lang} studies={study.more} headingLevel={3} />
        </section>
      )}
    </article>
  );
}
