import { createContext, use, useContext, useState, type ReactNode } from "react";
import type { Payload } from "./payload";

interface PayloadState {
  initial: Payload;
  current: Payload;
  setCurrent: (p: Payload) => void;
}

const PayloadContext = createContext<PayloadState | null>(null);

const fetched = new Map<string, Promise<Payload>>();

/**
 * fetchPayload asks the server what a path holds (page, head, data). When the
 * server cannot be reached, the browser loads the page the ordinary way.
 */
function fetchPayload(path: string): Promise<Payload> {
  let p = fetched.get(path);
  if (!p) {
    p = fetch(`/api/page?path=${encodeURIComponent(path)}`, { headers: { Accept: "application/json" } })
      .then((res) => {
        // A 404 carries the payload of the localized not-found page.
        if (!res.ok && res.status !== 404) throw new Error(`page data: HTTP ${res.status}`);
        return res.json() as Promise<Payload>;
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

export function PayloadProvider({ initial, children }: { initial: Payload; children: ReactNode }) {
  const [current, setCurrent] = useState(initial);
  return <PayloadContext value={{ initial, current, setCurrent }}>{children}</PayloadContext>;
}

function usePayloadState(): PayloadState {
  const state = useContext(PayloadContext);
  if (!state) throw new Error("PayloadProvider is missing");
  return state;
}

/** usePayload returns the payload of a path, suspending while it loads. */
export function usePayload(path: string): Payload {
  const { initial } = usePayloadState();
  if (path === initial.path) return initial;
  return use(fetchPayload(path));
}

/** useCurrentPayload returns the payload of the page on screen (for the shell: language links, head). */
export function useCurrentPayload(): [Payload, (p: Payload) => void] {
  const { current, setCurrent } = usePayloadState();
  return [current, setCurrent];
}
