import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import site from "../../content/site.json";
import { useCurrentPayload } from "../lib/payloadContext";
import { LinkItems, type SiteLink } from "./LinkItems";

export function Footer() {
  const { t } = useTranslation();
  const payload = useCurrentPayload();
  return (
    // Its id is what the document's first paint waits for (render/document.go).
    <footer className="site-footer" id="site-footer">
      <div className="container footer-grid">
        <div className="footer-brand">
          <p className="brand-name">{site.name}</p>
          <p>{t("footer.tagline")}</p>
          <p>
            <a href={`mailto:${site.email}`}>{site.email}</a>
          </p>
        </div>
        <FooterNav
          id="footer-quick"
          title={t("footer.quickLinks")}
          links={[
            { path: "/", text: t("nav.home") },
            { path: "/work", text: t("footer.work") },
            { path: "/team", text: t("footer.team") },
            { path: "/blog", text: t("nav.blog") },
            { path: "/schedule", text: t("nav.schedule") },
            { path: "/#contact", text: t("nav.contact") },
          ]}
        />
        <FooterNav
          id="footer-services"
          title={t("footer.services")}
          links={[
            { path: "/services/custom-software", text: t("services.customSoftware.title") },
            { path: "/services/platform-engineering", text: t("services.platformEngineering.title") },
            { path: "/services/strategic-consulting", text: t("services.strategicConsulting.title") },
          ]}
        />
        <FooterNav
          id="footer-legal"
          title={t("footer.legal")}
          links={[
            { path: "/privacy", text: t("footer.privacy") },
            { path: "/cookies", text: t("footer.cookies") },
            { path: "/imprint", text: t("footer.imprint") },
          ]}
        >
          <li>
            <button type="button" className="link-button" data-cc="show-preferencesModal" aria-haspopup="dialog">
              {t("footer.cookieSettings")}
            </button>
          </li>
        </FooterNav>
      </div>
      <div className="container footer-bottom">
        <p>{t("footer.copyright", { year: payload.year, name: site.legalName })}</p>
      </div>
    </footer>
  );
}

/** FooterNav is a column of the footer: links under a title (its id names the nav), and children after them. */
function FooterNav({ id, title, links, children }: { id: string; title: string; links: SiteLink[]; children?: ReactNode }) {
  return (
    <nav aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <ul>
        <LinkItems links={links} />
        {children}
      </ul>
    </nav>
  );
}
