import { useTranslation } from "react-i18next";
import type { PageProps } from "./types";

export default function BlogList(_: PageProps) {
  const { t } = useTranslation();
  return (
    <section className="container page-intro" aria-labelledby="blog-title">
      <h1 id="blog-title">{t("blog.title")}</h1>
      <p className="lead">{t("blog.lead")}</p>
    </section>
  );
}
