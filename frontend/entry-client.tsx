import "./styles/site.css";
import { StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { BrowserRouter } from "react-router-dom";
import { loadI18n } from "#locales";
import { pages } from "#pages";
import { App } from "./App";
import { browserLanguage, languageRedirect, storedLanguage } from "./lib/languages";
import { payloadElementId, type Payload } from "./lib/payload";

function start() {
  const redirect = languageRedirect(window.location.pathname, storedLanguage(), browserLanguage(navigator.language));
  if (redirect) {
    window.location.replace(redirect + window.location.search + window.location.hash);
    return;
  }
  const payload = JSON.parse(document.getElementById(payloadElementId)?.textContent ?? "null") as Payload;
  // The page's chunk and strings are loaded before hydration, so hydration never shows the placeholder.
  void Promise.all([loadI18n(payload.lang), pages[payload.page].preload()]).then(() => {
    hydrateRoot(
      document.getElementById("root")!,
      <StrictMode>
        <BrowserRouter>
          <App initial={payload} />
        </BrowserRouter>
      </StrictMode>,
    );
  });
}

start();
