import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { useLang } from "../lib/lang";
import { languages, storeLanguage } from "../lib/languages";
import { useCurrentPayload } from "../lib/payloadContext";

/** LanguageSelector links to the page on screen in every language, each named in its own language. */
export function LanguageSelector() {
  const { t } = useTranslation();
  const current = useLang();
  const payload = useCurrentPayload();
  return (
    <nav className="lang-select" aria-label={t("nav.language")}>
      <ul>
        {languages.map((l) => (
          <li key={l.code}>
            <Link
              to={payload.alternates[l.code] ?? l.prefix ?? "/"}
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
