import { useEffect, useState, type ComponentType, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import site from "../../../content/site.json";
import { useLang } from "../../lib/lang";
import type { Lang } from "../../lib/languages";
import { Loading, NoScriptNotice, Problem } from "./Intro";
import { useLinkedBooking, type LinkedBooking } from "./useLinkedBooking";

/** LinkedPanelProps is what the panel of a page a mailed link leads to is given: the page's language and the link's booking (useLinkedBooking). */
export type LinkedPanelProps = { lang: Lang } & ReturnType<typeof useLinkedBooking>;

/**
 * LinkedBookingPage is the frame of the pages a mailed link leads to
 * (cancel, choose another time): the page's title and introduction, served
 * the same for every booking, then its panel, given the booking of the
 * link, which is read in the browser and so only once the page is hydrated.
 */
export function LinkedBookingPage({ kind, Panel }: { kind: "cancel" | "reschedule"; Panel: ComponentType<LinkedPanelProps> }) {
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
      <div className="cancel-area">{mounted ? <LinkedPanel Panel={Panel} /> : null}</div>
    </div>
  );
}

/** LinkedPanel reads the booking of the link for Panel. */
function LinkedPanel({ Panel }: { Panel: ComponentType<LinkedPanelProps> }) {
  const lang = useLang();
  const linked = useLinkedBooking(lang);
  return <Panel lang={lang} {...linked} />;
}

/**
 * LinkedBookingProblem is what a panel shows while the booking of its link
 * is not there to act on: the placeholder while it loads, a link without a
 * token or with an unknown one, a meeting that has begun (started says so
 * in the panel's words), or a failure (failed, the panel's own).
 */
export function LinkedBookingProblem({
  state,
  started,
  failed,
}: {
  state: Exclude<LinkedBooking, { kind: "found" }>;
  started: string;
  failed: ReactNode;
}) {
  const { t } = useTranslation();
  switch (state.kind) {
    case "loading":
      return <Loading />;
    case "missing":
    case "notFound":
      return <Problem text={t("booking.cancel.notFound")} />;
    case "started":
      return <Problem text={started} />;
    case "failed":
      return failed;
  }
}
