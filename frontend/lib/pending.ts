import { createContext, useContext } from "react";

/** PendingContext is set by the client's router (frontend/lib/navigation.tsx); the server never sets it. */
export const PendingContext = createContext(false);

/**
 * useNavigationPending tells whether a navigation has waited for its page's
 * data longer than the placeholder's delay: the page on screen then gives
 * way to the placeholder, under its own address.
 */
export function useNavigationPending(): boolean {
  return useContext(PendingContext);
}
