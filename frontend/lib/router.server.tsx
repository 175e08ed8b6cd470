// Server: react-router-dom as the server bundle sees it (esbuild.config.mjs
// aliases it here): all of react-router, with a Link that writes the same
// <a> for less work. react-router's Link resolves its path against the
// route tree and sets up the click and prefetch handlers on every render;
// a server render writes only the anchor, and in goja those hooks were a
// third of a page's render. Every Link whose target is a plain absolute
// path is written here; any other (a path with a query, a fragment or a
// dot segment, an object, a prefetch, a mask) is react-router's own.
import { Link as RouterLink, type LinkProps } from "react-router";

export * from "react-router";

export function Link(props: LinkProps) {
  const {
    onClick: _onClick,
    discover = "render",
    prefetch = "none",
    relative: _relative,
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
  if (typeof to !== "string" || !plainPath(to) || prefetch !== "none" || mask !== undefined) {
    return <RouterLink {...props} />;
  }
  // The attributes in react-router's order: its own props, then href,
  // target and data-discover (the handlers and the ref write nothing).
  return <a {...rest} href={to} target={target} data-discover={discover === "render" ? "true" : undefined} />;
}

/**
 * plainPath reports whether react-router's href of to is to itself: an
 * absolute path with no query, fragment, backslash, empty or dot segment.
 */
function plainPath(to: string): boolean {
  return (
    to.charCodeAt(0) === 47 &&
    to.indexOf("//") < 0 &&
    to.indexOf("/.") < 0 &&
    to.indexOf("?") < 0 &&
    to.indexOf("#") < 0 &&
    to.indexOf("\\") < 0
  );
}
