import { useState } from "react";
import { api, ApiError } from "../api";
import { dateTime } from "../format";
import { useApi, useBoot, usePageTitle } from "../hooks";
import { useT, type Key } from "../i18n";
import type { Mail as MailRow } from "../types";
import { Button, Loading, Ltr, Notice, Problem } from "../ui";

/** kindKey names a kind of mail; an unknown kind is shown as it is. */
function kindKey(kind: string): Key | null {
  switch (kind) {
    case "contact.notify":
      return "mail.kinds.contactNotify";
    case "contact.ack":
      return "mail.kinds.contactAck";
    case "booking.confirmation":
      return "mail.kinds.bookingConfirmation";
    case "booking.notify":
      return "mail.kinds.bookingNotify";
    case "booking.cancelled":
    case "booking.cancelled-by-staff":
      return "mail.kinds.bookingCancelled";
    case "booking.cancel-notify":
    case "booking.staff-cancel-notify":
      return "mail.kinds.bookingCancelNotify";
    case "staff.sign-in":
      return "mail.kinds.signIn";
  }
  return null;
}

export function Mail() {
  const t = useT();
  const { lang, zone } = useBoot();
  usePageTitle("mail.title");
  const { data, error, loading, reload } = useApi<{ mail: MailRow[] }>("/staff/api/mail");
  const [retried, setRetried] = useState("");
  const [problem, setProblem] = useState<ApiError | null>(null);
  const retry = async (ref: string) => {
    setProblem(null);
    setRetried("");
    try {
      await api("POST", `/staff/api/mail/${encodeURIComponent(ref)}/retry`, {});
      setRetried(ref);
      reload();
    } catch (err) {
      setProblem(err instanceof ApiError ? err : null);
    }
  };
  return (
    <>
      <h1>{t("mail.title")}</h1>
      <p className="ws-hint">{t("mail.intro")}</p>
      {retried && <Notice>{t("mail.retried")}</Notice>}
      {problem && <Problem error={problem} />}
      {loading && <Loading />}
      {error && <Problem error={error} />}
      {data && data.mail.length === 0 && <p className="ws-empty">{t("mail.empty")}</p>}
      {data && data.mail.length > 0 && (
        <ul className="ws-list">
          {data.mail.map((m) => {
            const kind = kindKey(m.kind);
            return (
              <li key={m.ref} className="ws-item">
                <h2 className="ws-item-title">{m.subject || (kind ? t(kind) : m.kind)}</h2>
                <dl className="ws-facts ws-compact">
                  <dt>{t("mail.kind")}</dt>
                  <dd>{kind ? t(kind) : m.kind}</dd>
                  <dt>{t("mail.to")}</dt>
                  <dd>{m.to ? <Ltr>{m.to}</Ltr> : "—"}</dd>
                  <dt>{t("mail.state")}</dt>
                  <dd>{t(`mail.states.${m.state}`)}</dd>
                  <dt>{t("mail.created")}</dt>
                  <dd>
                    <time dateTime={m.created}>{dateTime(lang, m.created, zone)}</time>
                  </dd>
                  <dt>{t("mail.attempts")}</dt>
                  <dd>{m.attempts}</dd>
                  {m.lastError && (
                    <>
                      <dt>{t("mail.error")}</dt>
                      <dd>
                        <code dir="ltr">{m.lastError}</code>
                      </dd>
                    </>
                  )}
                </dl>
                {m.to && (
                  <Button kind="quiet" onClick={() => void retry(m.ref)}>
                    {t("mail.retry")}
                  </Button>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </>
  );
}
