import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import site from "../../../content/site.json";
import { useLocalPath } from "../../lib/lang";

/** Steps shows where the visitor is in the two booking steps. */
export function Steps({ current }: { current: 1 | 2 }) {
  const { t } = useTranslation();
  return (
    <ol className="schedule-steps" aria-label={t("schedule.steps.label")}>
      <li aria-current={current === 1 ? "step" : undefined}>
        <span className="step-number" aria-hidden="true">
          1
        </span>
        {t("schedule.steps.service")}
      </li>
      <li aria-current={current === 2 ? "step" : undefined}>
        <span className="step-number" aria-hidden="true">
          2
        </span>
        {t("schedule.steps.time")}
      </li>
    </ol>
  );
}

/** NoScriptNotice tells visitors without JavaScript that booking needs it, and how else to reach us. */
export function NoScriptNotice() {
  const { t } = useTranslation();
  const to = useLocalPath();
  return (
    <noscript>
      <div className="schedule-noscript">
        <p>{t("schedule.noscript.text")}</p>
        <p>
          <a href={`${to("/")}#contact`}>{t("schedule.noscript.form")}</a> {t("schedule.noscript.email")}{" "}
          <a href={`mailto:${site.email}`} dir="ltr">
            {site.email}
          </a>
        </p>
      </div>
    </noscript>
  );
}

/** ContactLink leads to the contact section of the home page, in the page's language. */
export function ContactLink({ className }: { className?: string }) {
  const { t } = useTranslation();
  const to = useLocalPath();
  return (
    <Link className={className} to={{ pathname: to("/"), hash: "#contact" }}>
      {t("schedule.time.contact")}
    </Link>
  );
}
