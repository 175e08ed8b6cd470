import { useState } from "react";
import { api, ApiError } from "../api";
import { dateTime } from "../format";
import { useApi, useBoot, usePageTitle } from "../hooks";
import { useT, type Key } from "../i18n";
import type { AuditEntry } from "../types";
import { Button, Loading, Ltr, Problem } from "../ui";

interface AuditResponse {
  entries: AuditEntry[];
  next: number;
}

const actions: Record<string, Key> = {
  invitation: "audit.actions.invitation",
  "staff-removal": "audit.actions.staffRemoval",
  enrolment: "audit.actions.enrolment",
  "passkey-added": "audit.actions.passkeyAdded",
  "passkey-removed": "audit.actions.passkeyRemoved",
  "sign-in": "audit.actions.signIn",
  "sign-out": "audit.actions.signOut",
  "sign-out-everywhere": "audit.actions.signOutEverywhere",
  "message-handled": "audit.actions.messageHandled",
  "message-reopened": "audit.actions.messageReopened",
  "not-spam": "audit.actions.notSpam",
  "marked-spam": "audit.actions.markedSpam",
  "booking-cancellation": "audit.actions.bookingCancellation",
  "mail-retry": "audit.actions.mailRetry",
  export: "audit.actions.export",
  "privacy-search": "audit.actions.privacySearch",
  "privacy-export": "audit.actions.privacyExport",
  erasure: "audit.actions.erasure",
  retention: "audit.actions.retention",
};

/** methods names how a sign-in was made. */
const methods: Record<string, Key> = { passkey: "audit.methods.passkey", link: "audit.methods.link" };

export function Audit() {
  const t = useT();
  const { lang, zone } = useBoot();
  usePageTitle("audit.title");
  const { data, error, loading } = useApi<AuditResponse>("/staff/api/audit");
  const [more, setMore] = useState<AuditResponse | null>(null);
  const [problem, setProblem] = useState<ApiError | null>(null);
  const entries = [...(data?.entries ?? []), ...(more?.entries ?? [])];
  const next = more ? more.next : (data?.next ?? 0);
  const loadMore = async () => {
    try {
      const page = await api<AuditResponse>("GET", `/staff/api/audit?before=${next}`);
      setMore({ entries: [...(more?.entries ?? []), ...page.entries], next: page.next });
    } catch (err) {
      setProblem(err instanceof ApiError ? err : null);
    }
  };
  return (
    <>
      <h1>{t("audit.title")}</h1>
      <p className="ws-hint">{t("audit.intro")}</p>
      {loading && <Loading />}
      {error && <Problem error={error} />}
      {data && entries.length === 0 && <p className="ws-empty">{t("audit.empty")}</p>}
      {entries.length > 0 && (
        <div className="ws-table-wrap">
          <table className="ws-table">
            <thead>
              <tr>
                <th scope="col">{t("audit.when")}</th>
                <th scope="col">{t("audit.who")}</th>
                <th scope="col">{t("audit.what")}</th>
                <th scope="col">{t("audit.details")}</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((e) => {
                const action = actions[e.action];
                const method = methods[e.detail];
                return (
                  <tr key={e.id}>
                    <td>
                      <time dateTime={e.at}>{dateTime(lang, e.at, zone)}</time>
                    </td>
                    <td>
                      <Ltr>{e.actor}</Ltr>
                    </td>
                    <td>{action ? t(action) : e.action}</td>
                    <td>
                      <Ltr>{[e.subject, method ? t(method) : e.detail].filter(Boolean).join(" · ")}</Ltr>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {problem && <Problem error={problem} />}
      {next > 0 && (
        <Button kind="quiet" onClick={() => void loadMore()}>
          {t("audit.more")}
        </Button>
      )}
    </>
  );
}
