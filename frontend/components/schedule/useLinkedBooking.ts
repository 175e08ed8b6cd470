import { useEffect, useState } from "react";
import type { Lang } from "../../lib/languages";
import { fetchCancellation, type CancellationResult } from "./api";
import { readLinkToken } from "./token";

/** LinkedBooking is the booking of an email's link, as far as it is known. */
export type LinkedBooking = { kind: "loading" } | { kind: "missing" } | CancellationResult;

/**
 * useLinkedBooking reads the token of the link from the visitor's email
 * and fetches its booking, in the browser. It returns the token, the
 * booking's state, and a setter for what a later answer (a cancellation)
 * says of it.
 */
export function useLinkedBooking(lang: Lang) {
  const [token] = useState(readLinkToken);
  const [state, setState] = useState<LinkedBooking>(token ? { kind: "loading" } : { kind: "missing" });
  useEffect(() => {
    if (!token) return;
    let live = true;
    void fetchCancellation(token, lang).then((r) => {
      if (live) setState(r);
    });
    return () => {
      live = false;
    };
  }, [token, lang]);
  return { token, state, setState };
}
