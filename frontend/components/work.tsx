import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { localPath, type Lang } from "../lib/languages";
import { Picture, type PictureData } from "./picture";

/** Result is a measured outcome of an engagement (internal/work.Result). */
export interface Result {
  value: string;
  label: string;
}

/** StudySummary is a case study as lists show it (internal/work.Summary). */
export interface StudySummary {
  slug: string;
  title: string;
  description: string;
  sector: string;
  size: string;
  result?: Result;
  cover: PictureData;
}

/** Testimonial is a client's words, from the case study of that client (internal/work.Testimonial). */
export interface Testimonial {
  text: string;
  name: string;
  role: string;
  company: string;
  slug: string;
}

/** cardSizes is the width of a card's cover (site.css .card-grid): three cards across a wide screen, two, then one. */
export const cardSizes = "(min-width: 72rem) 23rem, (min-width: 42rem) 46vw, 92vw";

export function studyPath(lang: Lang, slug: string): string {
  return localPath(lang, `/work/${slug}`);
}

/**
 * StudyCards lists case studies, each a card with its cover, sector, headline result and link.
 * eager is how many of the first covers are on the first screen (the rest load lazily).
 */
export function StudyCards({ lang, studies, headingLevel, eager = 0 }: { lang: Lang; studies: StudySummary[]; headingLevel: 2 | 3; eager?: number }) {
  const H = headingLevel === 2 ? "h2" : "h3";
  return (
    <ul className="study-grid card-grid">
      {studies.map((s, i) => (
        <li key={s.slug} className="study-card card">
          <Picture image={s.cover} sizes={cardSizes} lazy={i >= eager} className="card-cover" />
          <p className="study-sector">
            {s.sector} · {s.size}
          </p>
          <H>
            <Link to={studyPath(lang, s.slug)}>{s.title}</Link>
          </H>
          {s.result && (
            <p className="study-result">
              <strong>{s.result.value}</strong> {s.result.label}
            </p>
          )}
        </li>
      ))}
    </ul>
  );
}

/** Testimonials shows clients' words, each linking to its case study. */
export function Testimonials({ lang, items, titleId }: { lang: Lang; items: Testimonial[]; titleId: string }) {
  const { t } = useTranslation();
  return (
    <section className="testimonials" aria-labelledby={titleId}>
      <div className="container">
        <h2 id={titleId}>{t("work.voices")}</h2>
        <ul className="quote-grid card-grid">
          {items.map((q) => (
            <li key={q.slug}>
              <figure>
                <blockquote>
                  <p>{q.text}</p>
                </blockquote>
                <figcaption>
                  <strong>{q.name}</strong>
                  {t("work.separator")}
                  {q.role}
                  {t("work.separator")}
                  <Link to={studyPath(lang, q.slug)}>{q.company}</Link>
                </figcaption>
              </figure>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
