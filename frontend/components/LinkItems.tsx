import { Link, NavLink } from "react-router-dom";
import { useLocalPath } from "../lib/lang";

/** SiteLink is a link to a page of the site: its path without the language ("/blog"; "/#contact", a section of a page) and its text. */
export interface SiteLink {
  path: string;
  text: string;
}

/**
 * LinkItems lists links to the site's pages in the page's language, each
 * in its <li>. With nav, a link to a page is a NavLink, marked while its
 * page is shown (the home page's only on itself); a link to a section of a
 * page is never marked.
 */
export function LinkItems({ links, nav = false }: { links: SiteLink[]; nav?: boolean }) {
  const to = useLocalPath();
  return links.map(({ path, text }) => {
    const [pathname = "/", section] = path.split("#");
    let link = <Link to={to(pathname)}>{text}</Link>;
    if (section !== undefined) {
      link = <Link to={{ pathname: to(pathname), hash: `#${section}` }}>{text}</Link>;
    } else if (nav) {
      link = (
        <NavLink to={to(pathname)} end={pathname === "/"}>
          {text}
        </NavLink>
      );
    }
    return <li key={path}>{link}</li>;
  });
}
