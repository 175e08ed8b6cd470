// Not part of any bundle that ships: handlers/staff_bench_test.go builds it
// for goja to measure what rendering the workspace's pages on the server
// would cost (README, "Staff workspace"). It renders the inbox's list of
// messages, the workspace's largest page, from the same components.
import i18next from "i18next";
import { renderToString } from "react-dom/server";
import { StaticRouter } from "react-router-dom";
import en from "../../content/staff/locales/en.json";
import type { Boot } from "./boot";
import { BootContext } from "./hooks";
import { I18nContext } from "./i18n";
import { MessageList } from "./pages/Messages";
import type { Message } from "./types";

const i18n = i18next.createInstance();
void i18n.init({ lng: "en", resources: { en: { translation: en } }, initAsync: false, interpolation: { escapeValue: false } });

// goja has no Intl.DateTimeFormat: a server render would take its dates
// formatted by Go; here a stand-in that costs next to nothing.
const intl = globalThis.Intl as unknown as Record<string, unknown>;
if (typeof intl.DateTimeFormat !== "function") {
  intl.DateTimeFormat = function DateTimeFormat() {
    return { format: (d: Date) => d.toISOString().slice(0, 16).replace("T", " ") };
  };
}

function renderPage(json: string): string {
  const { boot, messages } = JSON.parse(json) as { boot: Boot; messages: Message[] };
  return renderToString(
    <StaticRouter location="/staff">
      <BootContext value={boot}>
        <I18nContext value={i18n}>
          <MessageList messages={messages} />
        </I18nContext>
      </BootContext>
    </StaticRouter>,
  );
}

(globalThis as unknown as { renderPage: typeof renderPage }).renderPage = renderPage;
