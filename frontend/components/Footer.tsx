import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import site from "../../content/site.json";
import { useLocalPath } from "../lib/lang";
import { useCurrentPayload } from "../lib/payloadContext";

export function Footer() {
  const { t } = useTranslation();
  const to = useLocalPath();
  const payload = useCurrentPayload();
  return (
    <footer className="site-footer">
      <div className="container footer-grid">
        <div className="footer-brand">
          <p className="brand-name">{site.name}</p>
          <p>{t("footer.tagline")}</p>
          <p>
            <a href={`mailto:${site.email}`}>{site.email}</a>
          </p>
        </div>
        <nav aria-labelledby="footer-quick">
          <h2 id="footer-quick">{t("footer.quickLinks")}</h2>
          <ul>
            <li>
              <Link to={to("/")}>{t("nav.home")}</Link>
            </li>
            <li>
              <Link to={to("/work")}>{t("footer.work")}</Link>
            </li>
            <li>
              <Link to={to("/team")}>{t("footer.team")}</Link>
            </li>
            <li>
              <Link to={to("/blog")}>{t("nav.blog")}</Link>
            </li>
            <li>
              <Link to={to("/schedule")}>{t("nav.schedule")}</Link>
            </li>
            <li>
              <Link to={{ pathname: to("/"), hash: "#contact" }}>{t("nav.contact")}</Link>
            </li>
          </ul>
        </nav>
        <nav aria-labelledby="footer-services">
          <h2 id="footer-services">{t("footer.services")}</h2>
          <ul>
            <li>
              <Link to={to("/services/custom-software")}>{t("services.customSoftware.title")}</Link>
            </li>
            <li>
              <Link to={to("/services/platform-engineering")}>{t("services.platformEngineering.title")}</Link>
            </li>
            <li>
              <Link to={to("/services/strategic-consulting")}>{t("services.strategicConsulting.title")}</Link>
            </li>
          </ul>
        </nav>
        <nav aria-labelledby="footer-legal">
          <h2 id="footer-legal">{t("footer.legal")}</h2>
          <ul>
            <li>
              <Link to={to("/privacy")}>{t("footer.privacy")}</Link>
            </li>
            <li>
              <Link to={to("/cookies")}>{t("footer.cookies")}</Link>
            </li>
            <li>
              <Link to={to("/imprint")}>{t("footer.imprint")}</Link>
            </li>
            <li>
              <button type="button" className="link-button" data-cc="show-preferencesModal" aria-haspopup="dialog">
                {t("footer.cookieSettings")}
              </button>
            </li>
          </ul>
        </nav>
      </div>
      <div className="container footer-bottom">
        <p>{t("footer.copyright", { year: payload.year, name: site.legalName })}</p>
      </div>
    </footer>
  );
}
