// The server bundle: goja evaluates it once per runtime and calls
// globalThis.renderPage for every page render.
import { StrictMode } from "react";
import { renderToString } from "react-dom/server";
import { StaticRouter } from "react-router-dom";
import { App } from "./App";
import type { Payload } from "./lib/payload";

function renderPage(payloadJSON: string): string {
  const payload = JSON.parse(payloadJSON) as Payload;
  return renderToString(
    <StrictMode>
      <StaticRouter location={payload.path}>
        <App initial={payload} />
      </StaticRouter>
    </StrictMode>,
  );
}

(globalThis as unknown as { renderPage: typeof renderPage }).renderPage = renderPage;
