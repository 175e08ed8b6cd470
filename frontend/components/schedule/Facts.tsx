import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { Meeting } from "./api";
import { Picture } from "../picture";
import type { HostCard } from "./hosts";
import { useLang } from "../../lib/lang";
import { serviceMinutes, type ServiceKey } from "./services";
import { formatDateTime } from "./time";
import type { ZoneCatalog } from "./zones";

/** ServiceFact is the row of a booking's facts that names its consultation and its length. */
export function ServiceFact({ service }: { service: ServiceKey }) {
  const { t } = useTranslation();
  return (
    <Fact term={t("schedule.confirmed.service")}>
      {t(`schedule.services.${service}.title`)} · {t("schedule.services.minutes", { count: serviceMinutes(service) })}
    </Fact>
  );
}

/** MeetingFact is the row of a booking's facts that says how the meeting happens: the video room, or the call. */
export function MeetingFact({ meeting }: { meeting: Meeting }) {
  const { t } = useTranslation();
  return (
    <Fact term={t("schedule.confirmed.meeting")}>
      {meeting.kind === "video" && meeting.url ? (
        <>
          {t("schedule.confirmed.video")}{" "}
          <a href={meeting.url} target="_blank" rel="noopener noreferrer" dir="ltr" className="meeting-link unbroken">
            {meeting.url.replace(/^https:\/\//, "")}
            <span className="visually-hidden"> {t("schedule.confirmed.newTab")}</span>
          </a>
        </>
      ) : (
        <>
          {t("schedule.confirmed.phone")}{" "}
          <bdi dir="ltr" className="meeting-phone">
            {meeting.phone}
          </bdi>
        </>
      )}
    </Fact>
  );
}

/** HostFact is the row of a booking's facts that names who takes the call: portrait, name and role. */
export function HostFact({ host }: { host: HostCard }) {
  const { t } = useTranslation();
  return (
    <Fact term={t("schedule.confirmed.host")} className="fact-host">
      <span className="schedule-host">
        <Picture image={host.photo} sizes="3rem" className="host-portrait" />
        <span>
          <strong className="host-name">{host.name}</strong> <span className="host-role">{host.role}</span>
        </span>
      </span>
    </Fact>
  );
}

/**
 * TimeFact is a row of a booking's facts: its start in a time zone, and the
 * zone's name ("New York (Eastern Time)"), once the catalog of zones has
 * loaded.
 */
export function TimeFact({
  label,
  start,
  timeZone,
  catalog,
  className,
}: {
  label: string;
  start: string;
  timeZone: string;
  catalog: ZoneCatalog | null;
  className?: string;
}) {
  const lang = useLang();
  return (
    <Fact term={label} className={className}>
      {formatDateTime(lang, start, timeZone)}
      <span className="zone-name">{catalog ? catalog.zone(timeZone).label : "\u00a0"}</span>
    </Fact>
  );
}

/** Fact is a row of a booking's facts: a term and what it says. */
function Fact({ term, children, className }: { term: string; children: ReactNode; className?: string }) {
  return (
    <div className={className}>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}
