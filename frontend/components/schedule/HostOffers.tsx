// The hosts still free at a time the visitor just lost to another (a 409
// of POST /api/bookings): rare, so in the booking's chunk, not the page's.
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { useLocalPath } from "../../lib/lang";
import type { CivilDate } from "./dates";
import { updateDraft } from "./draft";
import type { HostCard } from "./hosts";
import { type ServiceKey, withHost } from "./services";
import type { Slot } from "./slots";

/**
 * HostOffers offers the time a visitor just lost to another with the
 * hosts still free then: each leads to that host's times, with the time
 * already chosen.
 */
export function HostOffers({ service, hosts, slot, date }: { service: ServiceKey; hosts: HostCard[]; slot: Slot; date: CivilDate }) {
  const { t } = useTranslation();
  const to = useLocalPath();
  return (
    <p className="host-offers">
      {hosts.map((h) => (
        <Link
          key={h.slug}
          className="button button-secondary"
          to={withHost(to(`/schedule/${service}`), h.slug)}
          onClick={() => updateDraft(service, { date, slot })}
        >
          {t("schedule.host.bookWith", { name: h.name })}
        </Link>
      ))}
    </p>
  );
}
