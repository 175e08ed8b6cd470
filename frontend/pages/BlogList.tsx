import { useId } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { listPath, postPath, PostDates, TagList, type BlogListData, type PostSummary } from "../components/blog";
import type { Lang } from "../lib/languages";
import type { PageProps } from "./types";

/** BlogList is a page of the blog's list: every post of the language, or those with a tag. */
export default function BlogList({ payload }: PageProps) {
  const { t } = useTranslation();
  const data = payload.data as BlogListData;
  const lang = payload.lang;
  const tag = data.tag ?? "";
  const tagName = data.tagName ?? tag;
  return (
    <div className="container blog">
      <header className="blog-intro">
        <h1 tabIndex={-1}>{tag ? t("blog.tagTitle", { tag: tagName }) : t("blog.title")}</h1>
        <p className="lead">{tag ? t("blog.tagLead", { count: data.totalPosts }) : t("blog.lead")}</p>
      </header>

      {data.tags.length > 0 && <TagFilter lang={lang} tags={data.tags} current={tag} page={data.page} />}

      {data.posts.length === 0 ? (
        <p className="blog-empty">{t("blog.empty")}</p>
      ) : (
        <ol className="post-list">
          {data.posts.map((post) => (
            <li key={post.slug}>
              <PostCard post={post} />
            </li>
          ))}
        </ol>
      )}

      {data.totalPages > 1 && <Pagination lang={lang} tag={tag} page={data.page} total={data.totalPages} />}

      {data.feed && (
        <p className="feed-link">
          <a href={data.feed} type="application/atom+xml">
            {t("blog.feed")}
          </a>
        </p>
      )}
    </div>
  );
}

function PostCard({ post }: { post: PostSummary }) {
  const titleId = useId();
  return (
    <article className="post-card" aria-labelledby={titleId}>
      <h2 id={titleId}>
        <Link to={postPath(post.lang, post.slug)}>{post.title}</Link>
      </h2>
      <p className="post-meta">
        <PostDates post={post} />
      </p>
      <p className="post-card-description">{post.description}</p>
      <TagList lang={post.lang} tags={post.tags} />
    </article>
  );
}

/** TagFilter links to every tag's list; the list on screen is marked current. */
function TagFilter({ lang, tags, current, page }: { lang: Lang; tags: BlogListData["tags"]; current: string; page: number }) {
  const { t } = useTranslation();
  // The first page of a filter is the page itself; on a later page the filter is current but its link is not this page.
  const currentness = (active: boolean) => (active ? (page === 1 ? "page" : "true") : undefined);
  return (
    <nav className="tag-filter" aria-label={t("blog.tagFilter")}>
      <ul>
        <li>
          <Link to={listPath(lang)} aria-current={currentness(current === "")}>
            {t("blog.allPosts")}
          </Link>
        </li>
        {tags.map(({ tag, name, count }) => (
          <li key={tag}>
            <Link to={listPath(lang, tag)} aria-current={currentness(current === tag)}>
              {name} <span className="tag-count">{count}</span>
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** pageWindow returns the page numbers to show: the first, the last, and those around the current one; null is a gap. */
export function pageWindow(page: number, total: number): (number | null)[] {
  const out: (number | null)[] = [];
  for (let n = 1; n <= total; n++) {
    if (n === 1 || n === total || Math.abs(n - page) <= 1) out.push(n);
    else if (out[out.length - 1] !== null) out.push(null);
  }
  return out;
}

function Pagination({ lang, tag, page, total }: { lang: Lang; tag: string; page: number; total: number }) {
  const { t } = useTranslation();
  return (
    <nav className="pagination" aria-label={t("blog.pagination")}>
      <p className="pagination-status">{t("blog.pageOf", { page, total })}</p>
      <ul>
        {page > 1 && (
          <li>
            <Link to={listPath(lang, tag, page - 1)} rel="prev" className="pagination-prev">
              {t("blog.previousPage")}
            </Link>
          </li>
        )}
        {pageWindow(page, total).map((n, i) =>
          n === null ? (
            // biome-ignore lint/suspicious/noArrayIndexKey: a gap has no page number; its place in the window tells the (at most two) gaps apart
            <li key={`gap-${i}`} aria-hidden="true" className="pagination-gap">
              …
            </li>
          ) : (
            <li key={n}>
              <Link to={listPath(lang, tag, n)} aria-current={n === page ? "page" : undefined}>
                {n}
              </Link>
            </li>
          ),
        )}
        {page < total && (
          <li>
            <Link to={listPath(lang, tag, page + 1)} rel="next" className="pagination-next">
              {t("blog.nextPage")}
            </Link>
          </li>
        )}
      </ul>
    </nav>
  );
}
