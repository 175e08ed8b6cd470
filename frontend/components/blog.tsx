import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { localPath, type Lang } from "../lib/languages";
import type { PictureData } from "./picture";

// The blog's data as the server sends it (internal/blog: Summary, Page,
// Article). Dates come formatted in the post's language: they are shown as
// they are, never formatted again here, so server and client agree.

/** Cover is a post's cover picture (internal/blog.Cover, checked and completed by handlers/images.go). */
export type Cover = PictureData;

export interface PostSummary {
  lang: Lang;
  slug: string;
  title: string;
  description: string;
  author: string;
  /** published is YYYY-MM-DD, for <time dateTime>; publishedText is the same date for the reader. */
  published: string;
  publishedText: string;
  updated?: string;
  updatedText?: string;
  readingMinutes: number;
  tags: Tag[];
  cover?: Cover;
}

/** Tag is a tag as readers see it ("DevOps", "هندسة المنصات") and the slug of its URL. */
export interface Tag {
  slug: string;
  name: string;
}

export interface TagCount {
  /** tag is the slug. */
  tag: string;
  name: string;
  count: number;
}

/** BlogListData is a page of a language's list, optionally filtered by a tag. */
export interface BlogListData {
  lang: Lang;
  /** tag is the filter's slug; tagName the filter as readers see it. */
  tag?: string;
  tagName?: string;
  page: number;
  totalPages: number;
  totalPosts: number;
  posts: PostSummary[];
  /** tags lists every tag of the language, most used first. */
  tags: TagCount[];
  /** feed is the path of the language's Atom feed; absent without posts. */
  feed?: string;
}

export interface Heading {
  id: string;
  text: string;
  level: number;
}

export interface Translation {
  lang: Lang;
  slug: string;
  title: string;
}

/** BlogPostData is a post with what its page links to. */
export interface BlogPostData extends PostSummary {
  html: string;
  /** toc lists the level 2 and 3 headings. */
  toc: Heading[];
  /** translations are the other language versions of the post. */
  translations: Translation[];
  newer?: PostSummary;
  older?: PostSummary;
  /** authorPath is the author's page on the team, when they have one. */
  authorPath?: string;
}

// The blog's URLs; handlers/blog.go builds the same ones. A tag's URL holds
// its slug ("platform-engineering"), percent-encoded as browsers show them in
// location.pathname; pages show its name ("Platform engineering").

/** listPath returns the path of a page of the list, restricted to a tag unless it is empty. */
export function listPath(lang: Lang, tag = "", page = 1): string {
  let path = "/blog";
  if (tag) path += `/tag/${encodeURIComponent(tag)}`;
  if (page > 1) path += `/page/${page}`;
  return localPath(lang, path);
}

export function postPath(lang: Lang, slug: string): string {
  return localPath(lang, `/blog/${slug}`);
}

/** PostDates shows the publication (and update) date and the reading time of a post. */
export function PostDates({ post, withLabels = false }: { post: PostSummary; withLabels?: boolean }) {
  const { t } = useTranslation();
  return (
    <>
      <span>
        {withLabels && `${t("blog.published")} `}
        <time dateTime={post.published}>{post.publishedText}</time>
      </span>
      {withLabels && post.updated && (
        <span>
          {`${t("blog.updated")} `}
          <time dateTime={post.updated}>{post.updatedText}</time>
        </span>
      )}
      <span>{t("blog.readingTime", { count: post.readingMinutes })}</span>
    </>
  );
}

/** TagList links a post's tags to their lists. */
export function TagList({ lang, tags }: { lang: Lang; tags: Tag[] }) {
  const { t } = useTranslation();
  if (tags.length === 0) return null;
  return (
    <ul className="tag-list" aria-label={t("blog.tags")}>
      {tags.map((tag) => (
        <li key={tag.slug}>
          <Link to={listPath(lang, tag.slug)} rel="tag">
            {tag.name}
          </Link>
        </li>
      ))}
    </ul>
  );
}
