import { useId, type MouseEvent } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate } from "react-router-dom";
import { ArticleHeader, BookingCall, Translations } from "../components/article";
import { listPath, postPath, PostDates, TagList, type BlogPostData, type Heading, type PostSummary } from "../components/blog";
import { Picture, proseSizes } from "../components/picture";
import type { PageProps } from "./types";

/** A post with at least this many headings gets a table of contents. */
const tocMinHeadings = 4;

/** BlogPost is a post, with its table of contents, translations, neighbours and a call to book a consultation. */
export default function BlogPost({ payload }: PageProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const titleId = useId();
  const tocId = useId();
  const post = payload.data as BlogPostData;
  const lang = payload.lang;

  // Links in the post to the site's own pages stay in the app, like every other link.
  function followInternalLinks(e: MouseEvent<HTMLDivElement>) {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    const a = e.target instanceof Element ? e.target.closest("a") : null;
    if (!a || a.target || a.hasAttribute("download")) return;
    const url = new URL(a.href, window.location.href);
    const samePage = url.pathname === window.location.pathname && url.search === window.location.search;
    const file = /\.[a-z0-9]+$/i.test(url.pathname);
    if (url.origin !== window.location.origin || samePage || file) return;
    e.preventDefault();
    void navigate(url.pathname + url.search + url.hash);
  }

  return (
    <article className="container post" aria-labelledby={titleId}>
      <ArticleHeader back={listPath(lang)} backText={t("blog.allPosts")}>
        <h1 id={titleId} tabIndex={-1}>
          {post.title}
        </h1>
        <p className="lead">{post.description}</p>
        <p className="post-meta">
          {post.authorPath ? (
            <Link to={post.authorPath} rel="author">
              {t("blog.author", { author: post.author })}
            </Link>
          ) : (
            <span>{t("blog.author", { author: post.author })}</span>
          )}
          <PostDates post={post} withLabels />
        </p>
        <TagList lang={lang} tags={post.tags} />
        <Translations label={t("blog.translations")} versions={post.translations} path={postPath} />
      </ArticleHeader>

      {post.cover && (
        <Picture image={post.cover} sizes={proseSizes} priority className="post-cover" />
      )}

      {post.toc.length >= tocMinHeadings && (
        <nav className="toc" aria-labelledby={tocId}>
          <h2 id={tocId}>{t("blog.toc")}</h2>
          <TableOfContents headings={post.toc} />
        </nav>
      )}

      {/* The server rendered and sanitized this HTML from the post's Markdown (internal/markdown). */}
      {/* The div does nothing itself: its click handler takes the clicks on the links inside (Enter on a link fires one too). */}
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: sanitized by the server, as said above */}
      {/* biome-ignore lint/a11y/noStaticElementInteractions: a handler delegated from the links, as said above */}
      {/* biome-ignore lint/a11y/noNoninteractiveElementInteractions: a handler delegated from the links, as said above */}
      {/* biome-ignore lint/a11y/useKeyWithClickEvents: the links take the keys; Enter on one fires the click handled here */}
      <div className="prose post-body" onClick={followInternalLinks} dangerouslySetInnerHTML={{ __html: post.html }} />

      <BookingCall lang={lang} title={t("blog.cta.title")} text={t("blog.cta.text")} button={t("blog.cta.button")} />

      {(post.older || post.newer) && (
        <nav className="post-nav" aria-label={t("blog.postNav")}>
          <ul>
            {post.older && <Neighbour post={post.older} rel="prev" label={t("blog.older")} />}
            {post.newer && <Neighbour post={post.newer} rel="next" label={t("blog.newer")} />}
          </ul>
        </nav>
      )}
    </article>
  );
}

function Neighbour({ post, rel, label }: { post: PostSummary; rel: "prev" | "next"; label: string }) {
  return (
    <li className={`post-nav-${rel}`}>
      <Link to={postPath(post.lang, post.slug)} rel={rel}>
        <span className="post-nav-label">{label}</span>
        <span className="post-nav-title">{post.title}</span>
      </Link>
    </li>
  );
}

/** TableOfContents nests the level 3 headings under the level 2 heading before them. */
function TableOfContents({ headings }: { headings: Heading[] }) {
  const sections: { heading: Heading; children: Heading[] }[] = [];
  for (const h of headings) {
    const last = sections[sections.length - 1];
    if (h.level > 2 && last) last.children.push(h);
    else sections.push({ heading: h, children: [] });
  }
  return (
    <ol>
      {sections.map(({ heading, children }) => (
        <li key={heading.id}>
          <a href={`#${heading.id}`}>{heading.text}</a>
          {children.length > 0 && (
            <ol>
              {children.map((c) => (
                <li key={c.id}>
                  <a href={`#${c.id}`}>{c.text}</a>
                </li>
              ))}
            </ol>
          )}
        </li>
      ))}
    </ol>
  );
}
