import { useTranslation } from "react-i18next";
import type { PageProps } from "./types";

/** LegalData is a legal text rendered from content/legal/<lang>/<name>.md by the server. */
export interface LegalData {
  name: "privacy" | "cookies" | "imprint";
  title: string;
  html: string;
}

export default function Legal({ payload }: PageProps) {
  const { t } = useTranslation();
  const data = payload.data as LegalData;
  return (
    <article className="container prose legal">
      <h1 tabIndex={-1}>{data.title}</h1>
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: the server rendered and sanitized this HTML from the text's Markdown (internal/legal, internal/markdown) */}
      <div dangerouslySetInnerHTML={{ __html: data.html }} />
      {data.name === "cookies" && (
        <p>
          <button type="button" className="button button-secondary" data-cc="show-preferencesModal" aria-haspopup="dialog">
            {t("legal.openPreferences")}
          </button>
        </p>
      )}
    </article>
  );
}
