import { useEffect, useState, type ComponentType } from "react";
import { useTranslation } from "react-i18next";
import site from "../../../content/site.json";
import { NoScriptNotice } from "./Intro";

/**
 * LinkedBookingPage is the frame of the pages a mailed link leads to
 * (cancel, choose another time): the page's title and introduction, served
 * the same for every booking, then its panel, which reads the booking of
 * the link in the browser and so starts only once the page is hydrated.
 */
export function LinkedBookingPage({ kind, Panel }: { kind: "cancel" | "reschedule"; Panel: ComponentType }) {
  const { t } = useTranslation();
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  return (
    <div className={`container schedule ${kind}-booking`}>
      <header className="schedule-intro">
        <h1 tabIndex={-1}>{t(`booking.${kind}.title`)}</h1>
        <p className="lead">{t(`booking.${kind}.description`, { name: site.name })}</p>
      </header>
      <NoScriptNotice />
      <div className="cancel-area">{mounted ? <Panel /> : null}</div>
    </div>
  );
}
