import type { PageProps } from "./types";

/** BlogPostData is a post as the server sends it. */
export interface BlogPostData {
  title: string;
  html: string;
}

export default function BlogPost({ payload }: PageProps) {
  const post = payload.data as BlogPostData;
  return (
    <article className="container prose">
      <h1>{post.title}</h1>
      <div dangerouslySetInnerHTML={{ __html: post.html }} />
    </article>
  );
}
