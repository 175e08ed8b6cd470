// Server: react-router-dom as the server bundle sees it (esbuild.config.mjs
// aliases it here): all of react-router, with a Link and a NavLink that
// write the same <a> for less work. react-router's resolve their path
// against the route tree and set up click and prefetch handlers on every
// render; a server render writes only the anchor, and in goja those hooks
// were a third of a page's render. A link to a plain absolute path (and,
// for Link, one with a #fragment given as { pathname, hash }) is written
// here; any other (a query, a dot segment, a prefetch, a mask, a relative
// path) is react-router's own.
import { type LinkProps, type NavLinkProps, Link as RouterLink, NavLink as RouterNavLink, useLocation } from "react-router";

export * from "react-router";

export function Link(props: LinkProps) {
  const {
    onClick: _onClick,
    discover = "render",
    prefetch = "none",
    relative,
    reloadDocument: _reloadDocument,
    replace: _replace,
    mask,
    state: _state,
    target,
    to,
    preventScrollReset: _preventScrollReset,
    viewTransition: _viewTransition,
    defaultShouldRevalidate: _defaultShouldRevalidate,
    ...rest
  } = props;
  const href = plainHref(to);
  if (href === undefined || prefetch !== "none" || mask !== undefined || relative !== undefined) {
    return <RouterLink {...props} />;
  }
  // The attributes in react-router's order: its own props, then href,
  // target and data-discover (the handlers and the ref write nothing).
  return <a {...rest} href={href} target={target} data-discover={discover === "render" ? "true" : undefined} />;
}

export function NavLink(props: NavLinkProps) {
  const {
    "aria-current": ariaCurrentProp = "page",
    caseSensitive = false,
    className: classNameProp = "",
    end = false,
    style: styleProp,
    to,
    viewTransition,
    children,
    ...rest
  } = props;
  const location = useLocation();
  if (typeof to !== "string" || plainHref(to) === undefined || !urlSafe.test(to) || rest.relative !== undefined) {
    return <RouterNavLink {...props} />;
  }
  // react-router's test of the current page, without its router state:
  // a server render has no navigation pending and no view transition.
  const toPathname = caseSensitive ? to : to.toLowerCase();
  const locationPathname = caseSensitive ? location.pathname : location.pathname.toLowerCase();
  const endSlash = toPathname !== "/" && toPathname.endsWith("/") ? toPathname.length - 1 : toPathname.length;
  const isActive =
    locationPathname === toPathname ||
    (!end && locationPathname.startsWith(toPathname) && locationPathname.charAt(endSlash) === "/");
  const renderProps = { isActive, isPending: false, isTransitioning: false };
  const className = typeof classNameProp === "function" ? classNameProp(renderProps) : [classNameProp, isActive ? "active" : null].filter(Boolean).join(" ");
  const style = typeof styleProp === "function" ? styleProp(renderProps) : styleProp;
  return (
    <Link {...rest} aria-current={isActive ? ariaCurrentProp : undefined} className={className} style={style} to={to} viewTransition={viewTransition}>
      {typeof children === "function" ? children(renderProps) : children}
    </Link>
  );
}

/** urlSafe matches a path that URL parsing leaves as it is (react-router's NavLink compares the parsed one). */
const urlSafe = /^[A-Za-z0-9\-._~!$&'()*+,;=:@%/]*$/;

/**
 * plainHref returns react-router's href of to when it is to itself: an
 * absolute path with no query, fragment, backslash, empty or dot segment,
 * given as a string or as { pathname, hash }; else undefined.
 */
function plainHref(to: LinkProps["to"]): string | undefined {
  if (typeof to === "string") return plainPath(to) ? to : undefined;
  const { pathname, search, hash } = to;
  if (pathname === undefined || !plainPath(pathname) || (search !== undefined && search !== "")) return undefined;
  if (hash === undefined || hash === "" || hash === "#") return pathname;
  if (hash.charCodeAt(0) !== 35 || hash.indexOf("#", 1) >= 0 || hash.indexOf("?") >= 0) return undefined;
  return pathname + hash;
}

function plainPath(path: string): boolean {
  return (
    path.charCodeAt(0) === 47 &&
    path.indexOf("//") < 0 &&
    path.indexOf("/.") < 0 &&
    path.indexOf("?") < 0 &&
    path.indexOf("#") < 0 &&
    path.indexOf("\\") < 0
  );
}
