import { useTranslation } from "react-i18next";
import site from "../../content/site.json";
import { useCurrentPayload } from "../lib/payloadContext";
import { LinkItems } from "./LinkItems";

export function Footer() {
  const { t } = useTranslation();
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
            <LinkItems
              links={[
                { path: "/", text: t("nav.home") },
                { path: "/work", text: t("footer.work") },
                { path: "/team", text: t("footer.team") },
                { path: "/blog", text: t("nav.blog") },
                { path: "/schedule", text: t("nav.schedule") },
                { path: "/#contact", text: t("nav.contact") },
              ]}
            />
          </ul>
        </nav>
        <nav aria-labelledby="footer-services">
          <h2 id="footer-services">{t("footer.services")}</h2>
          <ul>
            <LinkItems
              links={[
                { path: "/services/custom-software", text: t("services.customSoftware.title") },
                { path: "/services/platform-engineering", text: t("services.platformEngineering.title") },
                { path: "/services/strategic-consulting", text: t("services.strategicConsulting.title") },
              ]}
            />
          </ul>
        </nav>
        <nav aria-labelledby="footer-legal">
          <h2 id="footer-legal">{t("footer.legal")}</h2>
          <ul>
            <LinkItems
              links={[
                { path: "/privacy", text: t("footer.privacy") },
                { path: "/cookies", text: t("footer.cookies") },
                { path: "/imprint", text: t("footer.imprint") },
              ]}
            />
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
