import { useId, type ReactNode } from "react";
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

/** ArticleHeader opens an article (a post, a case study, a person) with the way back to its list (back, its text backText), then children. */
export function ArticleHeader({ back, backText, children }: { back: string; backText: string; children: ReactNode }) {
  return (
    <header className="post-header">
      <p className="post-back">
        <Link to={back}>{backText}</Link>
      </p>
      {children}
    </header>
  );
}

/**
 * BookingCall is a call to book a consultation, at the end of a page: its
 * title, text and button's text, each given by the page, whose string groups
 * hold them; wide, it spans a page of its own width (container).
 */
export function BookingCall({ lang, title, text, button, wide = false }: { lang: Lang; title: string; text: string; button: string; wide?: boolean }) {
  const titleId = useId();
  return (
    <aside className={wide ? "container post-cta" : "post-cta"} aria-labelledby={titleId}>
      <h2 id={titleId}>{title}</h2>
      <p>{text}</p>
      <Link className="button button-primary" to={localPath(lang, "/schedule")}>
        {button}
      </Link>
    </aside>
  );
}
