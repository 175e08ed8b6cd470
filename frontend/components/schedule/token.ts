/** tokenKey keeps a booking's link token for the tab, so that switching language (which drops the query) keeps the booking. */
const tokenKey = "northbeam.cancelToken";

/**
 * readLinkToken returns the token of the link from the visitor's email
 * (?token=...), which both cancels and moves the booking, or the one this
 * tab was opened with. Only called in the browser.
 */
export function readLinkToken(): string {
  const fromUrl = new URLSearchParams(window.location.search).get("token") ?? "";
  try {
    if (fromUrl) window.sessionStorage.setItem(tokenKey, fromUrl);
    else return window.sessionStorage.getItem(tokenKey) ?? "";
  } catch {
    // Without storage, only the link itself carries the token.
  }
  return fromUrl;
}
