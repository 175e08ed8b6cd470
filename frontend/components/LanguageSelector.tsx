import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLocation } from "react-router-dom";
import { useLang } from "../lib/lang";
import { languages, storeLanguage } from "../lib/languages";
import { useCurrentPayload } from "../lib/payloadContext";

/**
 * LanguageSelector links to the page on screen in every language, each
 * named in its own language. The link of a mailed address (cancel, choose
 * another time) keeps its token, so that the page in another language still
 * finds the booking, on a reload too.
 */
export function LanguageSelector() {
  const { t } = useTranslation();
  const current = useLang();
  const payload = useCurrentPayload();
  const { search } = useLocation();
  // Read after hydration: the server renders the page without its query.
  const [query, setQuery] = useState("");
  useEffect(() => {
    const token = new URLSearchParams(search).get("token");
    setQuery(token ? `?token=${encodeURIComponent(token)}` : "");
  }, [search]);
  return (
    <nav className="lang-select" aria-label={t("nav.language")}>
      <ul>
        {languages.map((l) => (
          <li key={l.code}>
            <Link
              to={(payload.alternates[l.code] ?? l.prefix ?? "/") + query}
              lang={l.tag}
              hrefLang={l.tag}
              dir={l.dir}
              aria-current={l.code === current ? "true" : undefined}
              onClick={() => storeLanguage(l.code)}
            >
              {l.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
