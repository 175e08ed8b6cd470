import { Link } from "react-router-dom";
import { usePageTitle } from "../hooks";
import { useT } from "../i18n";

export function NotFound() {
  const t = useT();
  usePageTitle("notFound.title");
  return (
    <>
      <h1>{t("notFound.title")}</h1>
      <p>{t("notFound.text")}</p>
      <p>
        <Link to="/staff">{t("notFound.home")}</Link>
      </p>
    </>
  );
}
