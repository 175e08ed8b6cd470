import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLocation } from "react-router-dom";
import site from "../../content/site.json";
import { useLocalPath } from "../lib/lang";
import { LanguageSelector } from "./LanguageSelector";
import { LinkItems } from "./LinkItems";

/** NavLinks is the primary navigation, shared by the wide header and the phone menu. */
function NavLinks() {
  const { t } = useTranslation();
  return (
    <ul className="nav-list">
      <LinkItems
        nav
        links={[
          { path: "/", text: t("nav.home") },
          { path: "/services", text: t("nav.services") },
          { path: "/work", text: t("nav.work") },
          { path: "/team", text: t("nav.team") },
          { path: "/blog", text: t("nav.blog") },
          { path: "/schedule", text: t("nav.schedule") },
          { path: "/#contact", text: t("nav.contact") },
        ]}
      />
    </ul>
  );
}

export function Header() {
  const { t } = useTranslation();
  const to = useLocalPath();
  const menu = useRef<HTMLDetailsElement>(null);
  const { pathname, hash } = useLocation();
  // A navigation from the phone menu closes it.
  // biome-ignore lint/correctness/useExhaustiveDependencies(pathname): a navigation is what runs the effect
  // biome-ignore lint/correctness/useExhaustiveDependencies(hash): so is one to an anchor (the menu's Contact link, /#contact, from the home page)
  useEffect(() => {
    if (menu.current) menu.current.open = false;
  }, [pathname, hash]);
  return (
    <header className="site-header">
      <div className="container header-inner">
        <Link to={to("/")} className="brand" aria-label={t("nav.homeLabel", { name: site.name })}>
          <span className="brand-mark" aria-hidden="true" />
          <span className="brand-name">{site.name}</span>
        </Link>
        <nav className="nav-wide" aria-label={t("nav.primary")}>
          <NavLinks />
        </nav>
        <div className="header-tools">
          <LanguageSelector />
          <details className="nav-phone" ref={menu}>
            <summary>
              <span className="menu-icon" aria-hidden="true" />
              {t("nav.menu")}
            </summary>
            <nav aria-label={t("nav.primary")}>
              <NavLinks />
            </nav>
          </details>
        </div>
      </div>
    </header>
  );
}
