import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { useLocalPath } from "../lib/lang";
import type { PageProps } from "./types";

export default function NotFound(_: PageProps) {
  const { t } = useTranslation();
  const to = useLocalPath();
  return (
    <section className="container not-found" aria-labelledby="not-found-title">
      <p className="eyebrow" aria-hidden="true">
        404
      </p>
      <h1 id="not-found-title" tabIndex={-1}>
        {t("notFound.title")}
      </h1>
      <p className="lead">{t("notFound.text")}</p>
      <ul className="link-list">
        <li>
          <Link to={to("/")}>{t("notFound.home")}</Link>
        </li>
        <li>
          <Link to={to("/blog")}>{t("notFound.blog")}</Link>
        </li>
        <li>
          <Link to={{ pathname: to("/"), hash: "#contact" }}>{t("notFound.contact")}</Link>
        </li>
      </ul>
    </section>
  );
}
