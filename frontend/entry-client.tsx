import "./styles/site.css";
// First: Google Consent Mode defaults (all denied) are queued before any other code runs.
import "./consent/gtag";
import { StrictMode, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import { loadStrings, pageGroups, stringsFrom } from "#locales";
import { pages } from "#pages";
import { App } from "./App";
import { startConsent } from "./consent/start";
import { PreparedRouter } from "./lib/navigation";
import { payloadElementId, type Payload } from "./lib/payload";
import { rememberPayload } from "./lib/payloadContext";

// boot.ts has applied the language rules and started this module after the first paint.
function start() {
  const payload = JSON.parse(document.getElementById(payloadElementId)?.textContent ?? "null") as Payload;
  // The not-found page is rendered once per language and served at any unknown path: it belongs to this one.
  if (payload.status === 404) payload.path = window.location.pathname;
  rememberPayload(payload);
  // Where the strings are, before any is loaded (the banner's included).
  stringsFrom(payload.config.strings);
  // The banner's chunk and strings start downloading now, beside the page's,
  // not after hydration; the banner itself still waits for the hydrated page.
  startConsent(payload.config, payload.lang);
  // The page's chunk and strings are loaded before hydration, so hydration never shows the placeholder.
  void Promise.all([loadStrings(payload.lang, pageGroups(payload.page)), pages[payload.page].preload()]).then(() => {
    // Hydrating in a transition lets React yield to the browser every few
    // milliseconds instead of holding the main thread for the whole page (a
    // phone's long task). A click that comes first is not lost: React hydrates
    // what it targets at once, then dispatches it.
    startTransition(() => {
      hydrateRoot(
        document.getElementById("root")!,
        <StrictMode>
          <PreparedRouter>
            <App initial={payload} />
          </PreparedRouter>
        </StrictMode>,
        {
          // A mismatch between the server's HTML and the first client render is a bug: say so.
          onRecoverableError(error, info) {
            console.error("Hydration error:", error, info.componentStack ?? "");
          },
        },
      );
    });
  });
}

start();
