import { useId, useState } from "react";
import { isoDate } from "../format";
import { useBoot, usePageTitle } from "../hooks";
import { useT } from "../i18n";
import { useZoneName } from "../zones";

/** Exports downloads messages and bookings as CSV for a date range: plain links, which the browser saves. */
export function Exports() {
  const t = useT();
  const { zone } = useBoot();
  const zoneName = useZoneName();
  usePageTitle("exports.title");
  const today = isoDate(new Date(), zone);
  // Up to a year ahead: the consultations booked for the coming days are in the bookings' file.
  const [from, setFrom] = useState(`${today.slice(0, 4)}-01-01`);
  const [to, setTo] = useState(`${Number(today.slice(0, 4)) + 1}${today.slice(4)}`);
  const fromId = useId();
  const toId = useId();
  const hintId = useId();
  const query = `from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`;
  return (
    <>
      <h1>{t("exports.title")}</h1>
      <p>{t("exports.intro", { zone: zoneName(zone) })}</p>
      <form className="ws-form ws-range" onSubmit={(e) => e.preventDefault()}>
        <div className="ws-row">
          <div>
            <label htmlFor={fromId}>{t("exports.from")}</label>
            <input id={fromId} type="date" name="from" value={from} max={to} onChange={(e) => setFrom(e.target.value)} aria-describedby={hintId} />
          </div>
          <div>
            <label htmlFor={toId}>{t("exports.to")}</label>
            <input id={toId} type="date" name="to" value={to} min={from} onChange={(e) => setTo(e.target.value)} aria-describedby={hintId} />
          </div>
        </div>
        <p id={hintId} className="ws-hint">
          {t("exports.hint")}
        </p>
      </form>
      <ul className="ws-downloads">
        <li>
          <a className="ws-button" href={`/staff/export/messages.csv?${query}`}>
            {t("exports.messages")}
          </a>
        </li>
        <li>
          <a className="ws-button" href={`/staff/export/bookings.csv?${query}`}>
            {t("exports.bookings")}
          </a>
        </li>
      </ul>
    </>
  );
}
