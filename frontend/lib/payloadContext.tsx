import { createContext, use, useContext, type ReactNode } from "react";
import { useLocation } from "react-router-dom";
import type { Payload } from "./payload";

const PayloadContext = createContext<Payload | null>(null);

// The payloads of the document's life, by path: a page visited once comes
// back at once (the back button). Client side only: the server renders
// every page from its own payload, through the context.
const fetched = new Map<string, Promise<Payload>>();
const arrived = new Map<string, Payload>();

/** rememberPayload keeps the payload the document was served with, as if it had been fetched. */
export function rememberPayload(payload: Payload): void {
  arrived.set(payload.path, payload);
  fetched.set(payload.path, Promise.resolve(payload));
}

/**
 * fetchPayload asks the server what a path holds (page, head, data). When the
 * server cannot be reached, the browser loads the page the ordinary way.
 */
export function fetchPayload(path: string): Promise<Payload> {
  let p = fetched.get(path);
  if (!p) {
    p = fetch(`/api/page?path=${encodeURIComponent(path)}`, { headers: { Accept: "application/json" } })
      .then((res) => {
        // A 404 carries the payload of the localized not-found page.
        if (!res.ok && res.status !== 404) throw new Error(`page data: HTTP ${res.status}`);
        return res.json() as Promise<Payload>;
      })
      .then((payload) => {
        arrived.set(path, payload);
        return payload;
      })
      .catch((err: unknown) => {
        console.warn("Could not load the page data; loading the page instead.", err);
        fetched.delete(path);
        window.location.assign(path);
        return new Promise<Payload>(() => {});
      });
    fetched.set(path, p);
  }
  return p;
}

/** readyPayload returns the payload of a path if it has arrived. */
export function readyPayload(path: string): Payload | undefined {
  return arrived.get(path);
}

/** PayloadProvider holds the payload the page was rendered with (server) or served with (client). */
export function PayloadProvider({ initial, children }: { initial: Payload; children: ReactNode }) {
  return <PayloadContext value={initial}>{children}</PayloadContext>;
}

/**
 * usePayload returns the payload of a path. A navigation shows a page once
 * its payload is here (frontend/lib/navigation.tsx), so this suspends only
 * if something else rendered a path before.
 */
export function usePayload(path: string): Payload {
  const initial = useContext(PayloadContext);
  if (!initial) throw new Error("PayloadProvider is missing");
  if (path === initial.path) return initial;
  return readyPayload(path) ?? use(fetchPayload(path));
}

/** useCurrentPayload returns the payload of the page on screen (for the shell: language links, head, footer). */
export function useCurrentPayload(): Payload {
  return usePayload(useLocation().pathname);
}
