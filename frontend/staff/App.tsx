import type { i18n as I18n } from "i18next";
import { useEffect, useState, type ComponentType } from "react";
import { Link, Navigate, Outlet, Route, Routes, useLocation } from "react-router-dom";
import { api, signInPath, signOut } from "./api";
import type { Boot } from "./boot";
import { BootContext, useBoot, useFocusOnNavigation } from "./hooks";
import { I18nContext, useT, type Key } from "./i18n";
import { Account } from "./pages/Account";
import { Audit } from "./pages/Audit";
import { NewBooking } from "./pages/Agenda";
import { BookingDetail, Bookings } from "./pages/Bookings";
import { Enrol, LinkSignIn, SignIn } from "./pages/SignIn";
import { Exports } from "./pages/Exports";
import { Mail, MailDetail } from "./pages/Mail";
import { MessageDetail, Messages } from "./pages/Messages";
import { NotFound } from "./pages/NotFound";
import { Privacy } from "./pages/Privacy";

export function StaffApp({ boot, i18n }: { boot: Boot; i18n: I18n }) {
  useEffect(() => {
    document.documentElement.dataset.ready = "true";
  }, []);
  return (
    <BootContext value={boot}>
      <I18nContext value={i18n}>
        <Routes>
          <Route path="/staff/sign-in" element={<SignIn />} />
          <Route path="/staff/enrol" element={<Enrol />} />
          <Route path="/staff/link" element={<LinkSignIn />} />
          <Route element={<Layout />}>
            {pages.map(({ path, Page }) => (
              <Route key={path} path={path} element={<Page />} />
            ))}
            <Route path="*" element={<NotFound />} />
          </Route>
        </Routes>
      </I18nContext>
    </BootContext>
  );
}

/** pages are the pages behind the sign-in by their paths; nav is the key of the name of those the navigation leads to, in its order. */
const pages: { path: string; Page: ComponentType; nav?: Key }[] = [
  { path: "/staff", Page: Messages, nav: "nav.messages" },
  { path: "/staff/messages/:ref", Page: MessageDetail },
  { path: "/staff/bookings", Page: Bookings, nav: "nav.bookings" },
  { path: "/staff/bookings/new", Page: NewBooking },
  { path: "/staff/bookings/:id", Page: BookingDetail },
  { path: "/staff/mail", Page: Mail, nav: "nav.mail" },
  { path: "/staff/mail/:ref", Page: MailDetail },
  { path: "/staff/exports", Page: Exports, nav: "nav.exports" },
  { path: "/staff/privacy", Page: Privacy, nav: "nav.privacy" },
  { path: "/staff/audit", Page: Audit, nav: "nav.audit" },
  { path: "/staff/account", Page: Account, nav: "nav.account" },
];

/** navPages are the pages the navigation leads to, each with its name's key. */
const navPages = pages.flatMap(({ path, nav }) => (nav ? [[path, nav] as const] : []));

/** useUnread is the count of unread new messages, asked again at each navigation (reading one lowers it). */
function useUnread(pathname: string): number {
  const [unread, setUnread] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies(pathname): a navigation asks again
  useEffect(() => {
    let live = true;
    api<{ unread: number }>("GET", "/staff/api/counts").then(
      (c) => live && setUnread(c.unread),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [pathname]);
  return unread;
}

/** inSection reports whether pathname is a page under the navigation's page path: a message belongs to the messages. */
function inSection(path: string, pathname: string): boolean {
  return path === "/staff" ? pathname === "/staff" || pathname.startsWith("/staff/messages/") : pathname === path || pathname.startsWith(`${path}/`);
}

/** Layout is the frame of every page behind the sign-in: the header with the navigation, then the page. */
function Layout() {
  const t = useT();
  const { me, name } = useBoot();
  const { pathname } = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const [signingOut, setSigningOut] = useState(false);
  useFocusOnNavigation();
  const unread = useUnread(pathname);
  // biome-ignore lint/correctness/useExhaustiveDependencies(pathname): a navigation closes the menu
  useEffect(() => setMenuOpen(false), [pathname]);
  // Escape closes the open menu and gives the focus back to its button.
  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape") return;
      setMenuOpen(false);
      document.querySelector<HTMLButtonElement>(".ws-menu-button")?.focus();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [menuOpen]);
  if (!me) return <Navigate to={signInPath()} replace />;
  const leave = () => {
    setSigningOut(true);
    void signOut("/staff/api/sign-out");
  };
  return (
    <>
      <a className="skip-link ws-skip" href="#main">
        {t("app.skip")}
      </a>
      <header className="ws-header" data-open={menuOpen}>
        <div className="ws-bar">
          <p className="ws-brand">{t("app.name", { name })}</p>
          <div className="ws-user">
            <span className="ws-email" dir="ltr">
              {me.email}
            </span>
            <button type="button" className="ws-button ws-quiet" onClick={leave} disabled={signingOut}>
              {t("app.signOut")}
            </button>
          </div>
          <button
            type="button"
            className="ws-menu-button"
            aria-expanded={menuOpen}
            aria-controls="ws-nav"
            onClick={() => setMenuOpen((o) => !o)}
          >
            {t("app.menu")}
          </button>
        </div>
        <nav id="ws-nav" className="ws-nav" aria-label={t("app.nav")}>
          <ul>
            {navPages.map(([path, key]) => (
              <li key={path}>
                <Link to={path} aria-current={inSection(path, pathname) ? "page" : undefined}>
                  {t(key)}
                  {path === "/staff" && unread > 0 && (
                    <>
                      <span className="ws-count" aria-hidden="true">
                        {unread}
                      </span>
                      <span className="visually-hidden">{t("messages.unreadCount", { count: unread })}</span>
                    </>
                  )}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </header>
      <main id="main" className="ws-main" tabIndex={-1}>
        <Outlet />
      </main>
    </>
  );
}
