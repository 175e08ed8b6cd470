import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { Link, NavLink, useLocation } from "react-router-dom";
import site from "../../content/site.json";
import { useLocalPath } from "../lib/lang";
import { LanguageSelector } from "./LanguageSelector";

/** NavLinks is the primary navigation, shared by the wide header and the phone menu. */
function NavLinks() {
  const { t } = useTranslation();
  const to = useLocalPath();
  return (
    <ul className="nav-list">
      <li>
        <NavLink to={to("/")} end>
          {t("nav.home")}
        </NavLink>
      </li>
      <li>
        <NavLink to={to("/services")}>{t("nav.services")}</NavLink>
      </li>
      <li>
        <NavLink to={to("/blog")}>{t("nav.blog")}</NavLink>
      </li>
      <li>
        <NavLink to={to("/schedule")}>{t("nav.schedule")}</NavLink>
      </li>
      <li>
        <Link to={{ pathname: to("/"), hash: "#contact" }}>{t("nav.contact")}</Link>
      </li>
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
