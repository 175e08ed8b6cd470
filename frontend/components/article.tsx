import { useId } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { language, localPath, storeLanguage, type Lang } from "../lib/languages";

/** Version is an article (a post, a case study) in another language: its slug there, and its title when the page names it. */
export interface Version {
  lang: Lang;
  slug: string;
  title?: string;
}

/**
 * Translations leads to the other language versions of an article, named
 * label, each at path(lang, slug), in its own language and direction; a
 * reader who follows one keeps that language.
 */
export function Translations({ label, versions, path }: { label: string; versions: Version[]; path: (lang: Lang, slug: string) => string }) {
  const labelId = useId();
  if (versions.length === 0) return null;
  return (
    <nav className="post-translations" aria-labelledby={labelId}>
      <span id={labelId}>{label}</span>
      <ul>
        {versions.map((v) => {
          const l = language(v.lang);
          return (
            <li key={v.lang}>
              <Link to={path(v.lang, v.slug)} lang={l.tag} hrefLang={l.tag} dir={l.dir} title={v.title} onClick={() => storeLanguage(v.lang)}>
                {l.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

/** BookingCall ends an article with a call to book a consultation: its text and its button's. */
export function BookingCall({ lang, text, button }: { lang: Lang; text: string; button: string }) {
  const { t } = useTranslation();
  const titleId = useId();
  return (
    <aside className="post-cta" aria-labelledby={titleId}>
      <h2 id={titleId}>{t("blog.cta.title")}</h2>
      <p>{text}</p>
      <Link className="button button-primary" to={localPath(lang, "/schedule")}>
        {button}
      </Link>
    </aside>
  );
}
