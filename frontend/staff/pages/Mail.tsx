import { useState } from "react";
import { Link, useParams } from "react-router-dom";
import { api } from "../api";
import { useAction, useApi, usePageTitle } from "../hooks";
import { useT, type Key, type T } from "../i18n";
import { languageName } from "../labels";
import type { Mail as MailRow, MailText } from "../types";
import { BackLink, Button, List, Ltr, More, Notice, Pending, Problem, TimeFact } from "../ui";

/** kinds names each kind of mail the site writes (internal/contact, internal/booking, internal/staff). */
const kinds: Record<string, Key> = {
  "contact.notify": "mail.kinds.contactNotify",
  "contact.ack": "mail.kinds.contactAck",
  "booking.confirmation": "mail.kinds.bookingConfirmation",
  "booking.notify": "mail.kinds.bookingNotify",
  "booking.cancelled": "mail.kinds.bookingCancelled",
  "booking.cancel-notify": "mail.kinds.bookingCancelNotify",
  "booking.cancelled-by-staff": "mail.kinds.bookingCancelledByStaff",
  "booking.staff-cancel-notify": "mail.kinds.bookingStaffCancelNotify",
  "booking.moved": "mail.kinds.bookingMoved",
  "booking.moved-notify": "mail.kinds.bookingMovedNotify",
  "booking.reminder": "mail.kinds.bookingReminder",
  "staff.sign-in": "mail.kinds.signIn",
};

/** kindName names a kind of mail; a kind the workspace does not know yet is shown as it is. */
function kindName(t: T, kind: string): string {
  const key = kinds[kind];
  return key ? t(key) : kind;
}

interface MailResponse {
  /** A page of the mail that could not be sent, newest first. */
  mail: MailRow[];
  /** The ref before which its next page starts; "" after the last. */
  mailNext: string;
  outbox: MailRow[];
  /** The ref before which the next page of the outbox starts; "" after the last. */
  next: string;
}

/** MailFacts are a mail's kind, address, state, dates and attempts. */
function MailFacts({ m }: { m: MailRow }) {
  const t = useT();
  return (
    <dl className="ws-facts ws-compact">
      <dt>{t("mail.kind")}</dt>
      <dd>{kindName(t, m.kind)}</dd>
      <dt>{t("mail.to")}</dt>
      <dd>{m.to ? <Ltr>{m.to}</Ltr> : "—"}</dd>
      <dt>{t("mail.state")}</dt>
      <dd>{m.state === "pending" && m.attempts === 0 ? t("mail.states.queued") : t(`mail.states.${m.state}`)}</dd>
      <TimeFact label={t("mail.created")} at={m.created} />
      <TimeFact label={t("mail.sent")} at={m.sent} />
      {m.state !== "sent" && m.state !== "erased" && (
        <>
          <dt>{t("mail.attempts")}</dt>
          <dd>{m.attempts}</dd>
        </>
      )}
      {m.lastError && (
        <>
          <dt>{t("mail.error")}</dt>
          <dd>
            {m.reason === "smtputf8" && <p>{t("mail.reasons.smtputf8")}</p>}
            <code dir="ltr">{m.lastError}</code>
          </dd>
        </>
      )}
    </dl>
  );
}

/** MailTitle is a mail's subject, linked to its text; an erased mail has neither. */
function MailTitle({ m }: { m: MailRow }) {
  const t = useT();
  return (
    <h3 className="ws-item-title">
      {m.state === "erased" ? t("mail.erasedTitle", { kind: kindName(t, m.kind) }) : <Link to={`/staff/mail/${m.ref}`}>{m.subject || kindName(t, m.kind)}</Link>}
    </h3>
  );
}

export function Mail() {
  const t = useT();
  usePageTitle("mail.title");
  const { data, error, loading, reload } = useApi<MailResponse>("/staff/api/mail");
  const [older, setOlder] = useState<{ outbox: MailRow[]; next: string } | null>(null);
  const [olderTroubled, setOlderTroubled] = useState<{ mail: MailRow[]; next: string } | null>(null);
  const [retried, setRetried] = useState("");
  const { busy, problem, run } = useAction();
  const retry = (ref: string) => {
    setRetried("");
    return run(async () => {
      await api("POST", `/staff/api/mail/${encodeURIComponent(ref)}/retry`, {});
      setRetried(ref);
      // The troubled mail is read again from its first page.
      setOlderTroubled(null);
      reload();
    });
  };
  const outbox = [...(data?.outbox ?? []), ...(older?.outbox ?? [])];
  const next = older ? older.next : (data?.next ?? "");
  const loadMore = () =>
    run(async () => {
      const page = await api<MailResponse>("GET", `/staff/api/mail?before=${encodeURIComponent(next)}`);
      setOlder({ outbox: [...(older?.outbox ?? []), ...page.outbox], next: page.next });
    });
  const troubled = [...(data?.mail ?? []), ...(olderTroubled?.mail ?? [])];
  const troubledNext = olderTroubled ? olderTroubled.next : (data?.mailNext ?? "");
  const loadMoreTroubled = () =>
    run(async () => {
      const page = await api<MailResponse>("GET", `/staff/api/mail?troubledBefore=${encodeURIComponent(troubledNext)}`);
      setOlderTroubled({ mail: [...(olderTroubled?.mail ?? []), ...page.mail], next: page.mailNext });
    });
  return (
    <>
      <h1>{t("mail.title")}</h1>
      {retried && <Notice>{t("mail.retried")}</Notice>}
      {problem && <Problem error={problem} />}
      <Pending loading={loading} error={error} />
      {data && (
        <>
          <section aria-labelledby="ws-mail-troubled">
            <h2 id="ws-mail-troubled">{t("mail.troubledTitle")}</h2>
            <p className="ws-hint">{t("mail.intro")}</p>
            <List
              items={troubled}
              empty={t("mail.empty")}
              item={(m) => (
                <li key={m.ref} className="ws-item">
                  <MailTitle m={m} />
                  <MailFacts m={m} />
                  <Button kind="quiet" onClick={() => void retry(m.ref)}>
                    {t("mail.retry")}
                  </Button>
                </li>
              )}
            />
            {troubledNext && <More label={t("mail.moreTroubled")} busy={busy} failed={!!problem} onMore={() => void loadMoreTroubled()} />}
          </section>
          <section aria-labelledby="ws-mail-outbox">
            <h2 id="ws-mail-outbox">{t("mail.outboxTitle")}</h2>
            <p className="ws-hint">{t("mail.outboxIntro")}</p>
            <List
              items={outbox}
              empty={t("mail.outboxEmpty")}
              item={(m) => (
                <li key={m.ref} className="ws-item">
                  <MailTitle m={m} />
                  <MailFacts m={m} />
                </li>
              )}
            />
            {next && <More label={t("mail.more")} busy={busy} failed={!!problem} onMore={() => void loadMore()} />}
          </section>
        </>
      )}
    </>
  );
}

/** MailDetail is one mail of the outbox: its facts and its text, as the recipient reads it. */
export function MailDetail() {
  const t = useT();
  const { ref = "" } = useParams();
  usePageTitle("mail.detailTitle");
  const { data, error, loading } = useApi<{ mail: MailText }>(`/staff/api/mail/${encodeURIComponent(ref)}`);
  const m = data?.mail;
  return (
    <>
      <BackLink to="/staff/mail">{t("mail.back")}</BackLink>
      <Pending loading={loading} error={error} />
      {m && (
        <article className="ws-detail">
          <h1 dir="auto">{m.state === "erased" ? t("mail.erasedTitle", { kind: kindName(t, m.kind) }) : m.subject}</h1>
          <MailFacts m={m} />
          {m.replyTo && (
            <p>
              {t("mail.replyTo")} <Ltr>{m.replyTo}</Ltr>
            </p>
          )}
          {m.lang && <p>{t("mail.language", { language: languageName(t, m.lang) })}</p>}
          <h2>{t("mail.text")}</h2>
          {m.state === "erased" ? (
            <p className="ws-empty">{t("mail.erasedText")}</p>
          ) : (
            <pre className="ws-message ws-mail-text" dir="auto" lang={m.lang || undefined}>
              {m.text}
            </pre>
          )}
        </article>
      )}
    </>
  );
}
