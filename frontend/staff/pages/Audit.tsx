import { useState } from "react";
import { api } from "../api";
import { useAction, useApi, usePageTitle } from "../hooks";
import { useT, type Key } from "../i18n";
import type { AuditEntry } from "../types";
import { Ltr, More, Pending, Problem, When } from "../ui";

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
  "booking-move": "audit.actions.bookingMove",
  "booking-by-staff": "audit.actions.bookingByStaff",
  "no-show": "audit.actions.noShow",
  "no-show-undone": "audit.actions.noShowUndone",
  note: "audit.actions.note",
  "mail-retry": "audit.actions.mailRetry",
  export: "audit.actions.export",
  "privacy-search": "audit.actions.privacySearch",
  "privacy-export": "audit.actions.privacyExport",
  erasure: "audit.actions.erasure",
  retention: "audit.actions.retention",
  "hand-over": "audit.actions.handOver",
  "calendar-feed-added": "audit.actions.calendarFeedAdded",
  "calendar-feed-removed": "audit.actions.calendarFeedRemoved",
  "private-feed-renewed": "audit.actions.privateFeedRenewed",
  "private-feed-revoked": "audit.actions.privateFeedRevoked",
};

/** actors names who acted when it was no member (internal/staff: ActorCommandLine, ActorRetention). */
const actors: Record<string, Key> = { "command line": "audit.actors.commandLine", "retention job": "audit.actors.retention" };

/** methods names how a sign-in was made. */
const methods: Record<string, Key> = { passkey: "audit.methods.passkey", link: "audit.methods.link" };

/** columns are the names of the audit log's columns, in order. */
const columns = ["audit.when", "audit.who", "audit.what", "audit.details"] as const satisfies readonly Key[];

export function Audit() {
  const t = useT();
  usePageTitle("audit.title");
  const { data, error, loading } = useApi<AuditResponse>("/staff/api/audit");
  const [more, setMore] = useState<AuditResponse | null>(null);
  const { busy, problem, run } = useAction();
  const entries = [...(data?.entries ?? []), ...(more?.entries ?? [])];
  const next = more ? more.next : (data?.next ?? 0);
  const loadMore = () =>
    run(async () => {
      const page = await api<AuditResponse>("GET", `/staff/api/audit?before=${next}`);
      setMore({ entries: [...(more?.entries ?? []), ...page.entries], next: page.next });
    });
  return (
    <>
      <h1>{t("audit.title")}</h1>
      <p className="ws-hint">{t("audit.intro")}</p>
      <Pending loading={loading} error={error} />
      {data && entries.length === 0 && <p className="ws-empty">{t("audit.empty")}</p>}
      {/* biome-ignore-start lint/a11y/noRedundantRoles: on a phone each entry is a card (staff.css, display: block), which takes a table's semantics away in some browsers; the roles keep them */}
      {entries.length > 0 && (
        <div className="ws-table-wrap">
          <table className="ws-table ws-cards" role="table">
            <thead role="rowgroup">
              <tr role="row">
                {columns.map((c) => (
                  <th key={c} scope="col" role="columnheader">
                    {t(c)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody role="rowgroup">
              {entries.map((e) => {
                const action = actions[e.action];
                return (
                  <tr key={e.id} role="row">
                    <td role="cell" data-label={t("audit.when")}>
                      <When at={e.at} />
                    </td>
                    <td role="cell" data-label={t("audit.who")}>
                      {actors[e.actor] ? t(actors[e.actor] as Key) : <Ltr>{e.actor}</Ltr>}
                    </td>
                    <td role="cell" data-label={t("audit.what")}>
                      {action ? t(action) : e.action}
                    </td>
                    <td role="cell" data-label={t("audit.details")}>
                      <AuditDetail e={e} />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {/* biome-ignore-end lint/a11y/noRedundantRoles: the audit log's table */}
      {problem && <Problem error={problem} />}
      {next > 0 && <More label={t("audit.more")} busy={busy} failed={!!problem} onMore={() => void loadMore()} />}
    </>
  );
}

/**
 * AuditDetail says what an entry concerned: its subject (a reference, kept
 * left to right) and its detail, in the member's language where the log
 * records a known form (a sign-in's method, an export's rows, the sessions
 * signed out), as written otherwise (a note's text, in its own direction).
 */
function AuditDetail({ e }: { e: AuditEntry }) {
  const t = useT();
  const method = methods[e.detail];
  const rows = /^(\d+) rows$/.exec(e.detail);
  const sessions = /^sessions: (\d+)$/.exec(e.detail);
  let detail: string = e.detail;
  if (method) detail = t(method);
  else if (rows) detail = t("audit.rows", { count: Number(rows[1]) });
  else if (sessions) detail = t("audit.sessions", { count: Number(sessions[1]) });
  const [noteOn, noteRef] = e.action === "note" ? e.subject.split(" ") : [];
  // One element: on a phone the cell is a grid of its label and its content (staff.css).
  if (noteOn && noteRef) {
    return (
      <span>
        {t(noteOn === "message" ? "audit.noteOnMessage" : "audit.noteOnBooking")} <Ltr>{noteRef}</Ltr>
        {detail && ": "}
        {detail && <bdi dir="auto">{detail}</bdi>}
      </span>
    );
  }
  // A reference and a detail the log writes itself (numbers, times, "from → to"): left to right.
  return (
    <span>
      {e.subject && <Ltr>{e.subject}</Ltr>}
      {e.subject && detail && " · "}
      {detail && (method || rows || sessions ? detail : <Ltr>{detail}</Ltr>)}
    </span>
  );
}
