// Where each page of the visit was scrolled to, for the back and forward
// buttons: a client navigation replaces the page in place, so the browser's
// own restoration (made for documents) cannot know. Kept in memory for the
// life of the document, keyed by the history entry (react-router's key);
// nothing is stored on the device.

const positions = new Map<string, number>();
let lastY = 0;
let pinned: number | undefined;

/** followScroll starts following the window's scroll position; it returns the function that stops. */
export function followScroll(): () => void {
  lastY = window.scrollY;
  const onScroll = () => {
    lastY = window.scrollY;
  };
  window.addEventListener("scroll", onScroll, { passive: true });
  return () => window.removeEventListener("scroll", onScroll);
}

/**
 * leavingPage remembers where the page of a history entry was scrolled to
 * as it is left. It reads the last scroll event, not window.scrollY: the
 * next page is in the document already, and may have moved the scroll.
 */
export function leavingPage(key: string): void {
  positions.set(key, pinned ?? lastY);
  pinned = undefined;
}

/**
 * pinScroll keeps where the page on screen is scrolled to as where it was
 * left, before a placeholder takes its place (and the top of the window)
 * under its address.
 */
export function pinScroll(): void {
  pinned ??= lastY;
}

/** savedScroll returns where the page of a history entry was left, if it was. */
export function savedScroll(key: string): number | undefined {
  return positions.get(key);
}
