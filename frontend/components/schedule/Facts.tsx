import { useTranslation } from "react-i18next";
import { useLang } from "../../lib/lang";
import { serviceMinutes, type ServiceKey } from "./services";
import { formatDateTime, zoneLabel } from "./time";

/** ServiceFact is the row of a booking's facts that names its consultation and its length. */
export function ServiceFact({ service }: { service: ServiceKey }) {
  const { t } = useTranslation();
  return (
    <div>
      <dt>{t("schedule.confirmed.service")}</dt>
      <dd>
        {t(`schedule.services.${service}.title`)} · {t("schedule.services.minutes", { count: serviceMinutes(service) })}
      </dd>
    </div>
  );
}

/** TimeFact is a row of a booking's facts: its start in a time zone, and the zone's name. */
export function TimeFact({ label, start, timeZone }: { label: string; start: string; timeZone: string }) {
  const lang = useLang();
  return (
    <div>
      <dt>{label}</dt>
      <dd>
        {formatDateTime(lang, start, timeZone)}
        <span className="zone-name">{zoneLabel(lang, timeZone, new Date(start))}</span>
      </dd>
    </div>
  );
}
