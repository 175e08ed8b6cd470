import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLocation } from "react-router-dom";
import { useLocalPath } from "../../lib/lang";
import { Picture, type PictureData } from "../picture";
import { hostParam, type ServiceKey, withHost } from "./services";

/** HostCard is a person who takes consultations, as the booking pages show them (internal/sitebuild HostCard). */
export interface HostCard {
  slug: string;
  name: string;
  role: string;
  photo: PictureData;
  /** services are the consultations they take. */
  services?: string[];
}

/** ScheduleData is the payload data of the booking pages: the hosts, in the page's language. */
export interface ScheduleData {
  hosts?: HostCard[];
  /** choice are the services whose visitors choose their host. */
  choice?: string[] | null;
}

/** hostsOf are the hosts of hosts who take service. */
export function hostsOf(hosts: readonly HostCard[], service: ServiceKey): HostCard[] {
  return hosts.filter((h) => h.services?.includes(service));
}

/**
 * useChosenHost is the host the address asks to book with (?with=<slug>),
 * among hosts, and taking service when one is named: undefined until the
 * browser has read the address (the server's page is the same for every
 * query, so the first render must be too), then the host or null.
 */
export function useChosenHost(hosts: readonly HostCard[], service: ServiceKey | null): HostCard | null | undefined {
  const { search } = useLocation();
  const [slug, setSlug] = useState<string | null | undefined>(undefined);
  useEffect(() => setSlug(new URLSearchParams(search).get(hostParam)), [search]);
  if (slug === undefined) return undefined;
  return hosts.find((h) => h.slug === slug && (service === null || h.services?.includes(service))) ?? null;
}

/** HostLine shows whom the times are with: portrait, name and role, and a way back to everyone's times when others take the service too. */
export function HostLine({ host, service, others }: { host: HostCard; service: ServiceKey; others: number }) {
  const { t } = useTranslation();
  const to = useLocalPath();
  return (
    <div className="schedule-host">
      <Picture image={host.photo} sizes="3rem" className="host-portrait" />
      <p>
        <strong className="host-name">{t("schedule.host.with", { name: host.name })}</strong>
        <span className="host-role">{host.role}</span>
        {others > 0 ? <Link to={to(`/schedule/${service}`)}>{t("schedule.host.anyone")}</Link> : null}
      </p>
    </div>
  );
}

/** HostChoice offers the hosts of a service whose visitors choose: each leads to that person's times. */
export function HostChoice({ hosts, service }: { hosts: HostCard[]; service: ServiceKey }) {
  const { t } = useTranslation();
  const to = useLocalPath();
  return (
    <div className="host-choice">
      <p>{t("schedule.host.choose")}</p>
      <ul>
        {hosts.map((h) => (
          <li key={h.slug}>
            <Link to={withHost(to(`/schedule/${service}`), h.slug)} className="schedule-host">
              <Picture image={h.photo} sizes="3rem" className="host-portrait" lazy />
              <span className="host-text">
                <strong className="host-name">{h.name}</strong> <span className="host-role">{h.role}</span>
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
