import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { ArticleHeader } from "../components/article";
import { postPath, type PostSummary } from "../components/blog";
import { Picture } from "../components/picture";
import { inServiceOrder, withHost } from "../components/schedule/services";
import type { PersonData } from "../components/team";
import { localPath } from "../lib/languages";
import type { PageProps } from "./types";

/** PersonPageData is a person's page (handlers/team.go personData). */
export interface PersonPageData extends PersonData {
  posts: PostSummary[];
  /** hosts are the consultations booked with them; none when they take none. */
  hosts?: string[];
}

/** Person is one person of the team: role, expertise, biography and what they wrote. */
export default function Person({ payload }: PageProps) {
  const { t } = useTranslation();
  const person = payload.data as PersonPageData;
  const lang = payload.lang;
  // Someone who takes consultations is booked from their page: straight to the time step when they take one kind.
  const hosted = inServiceOrder(person.hosts ?? []);
  const bookPath = hosted.length === 1 ? `/schedule/${hosted[0]}` : "/schedule";
  return (
    <article className="container post person">
      <ArticleHeader back={localPath(lang, "/team")} backText={t("team.all")}>
        <div className="person-intro">
          <Picture image={person.photo} sizes="9rem" className="portrait" />
          <div>
            <h1 tabIndex={-1}>{person.name}</h1>
            <p className="lead">{person.role}</p>
            {hosted.length > 0 ? (
              <p>
                <Link className="button button-primary person-book" to={withHost(localPath(lang, bookPath), person.slug)}>
                  {t("team.book", { name: person.name })}
                </Link>
              </p>
            ) : null}
          </div>
        </div>
      </ArticleHeader>
      <p>{person.description}</p>
      {/* The server rendered and sanitized this HTML from the person's Markdown (internal/markdown). */}
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: sanitized by the server, as said above */}
      <div className="prose post-body" dangerouslySetInnerHTML={{ __html: person.html }} />
      <section className="person-section" aria-labelledby="person-expertise">
        <h2 id="person-expertise">{t("team.expertise")}</h2>
        <ul className="checklist">
          {person.expertise.map((e) => (
            <li key={e}>{e}</li>
          ))}
        </ul>
      </section>
      {person.posts.length > 0 && (
        <section className="person-section" aria-labelledby="person-posts">
          <h2 id="person-posts">{t("team.posts", { name: person.name })}</h2>
          <ul>
            {person.posts.map((p) => (
              <li key={p.slug}>
                <Link to={postPath(p.lang, p.slug)}>{p.title}</Link>
              </li>
            ))}
          </ul>
        </section>
      )}
    </article>
  );
}
