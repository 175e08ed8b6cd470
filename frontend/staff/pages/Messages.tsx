import { useEffect, useId, useState, type FormEvent } from "react";
import { Link, useParams, useSearchParams } from "react-router-dom";
import { api } from "../api";
import { dateTime } from "../format";
import { useAction, useApi, useBoot, usePageTitle } from "../hooks";
import { defaultLang, isLang, language, type Lang } from "../../lib/languages";
import { loadStrings, useT, type Key } from "../i18n";
import { languageName, serviceKey } from "../labels";
import type { Folder, Message, MessagesResponse } from "../types";
import { Notes } from "../notes";
import { BackLink, Button, Ltr, More, Notice, Pending, Problem, Tabs, TimeFact, When } from "../ui";

const folders: Folder[] = ["new", "handled", "spam"];

/** spamReasons says why a message is in the spam folder (internal/contact's reasons, and staff's). */
const spamReasons: Record<string, Key> = {
  honeypot: "messages.spamHoneypot",
  "too-fast": "messages.spamTooFast",
  staff: "messages.spamByStaff",
};

function isFolder(f: string | null): f is Folder {
  return f === "new" || f === "handled" || f === "spam";
}

/** excerpt is the beginning of a message, for the list. */
function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 160 ? `${flat.slice(0, 157)}…` : flat;
}

/** MessageList lists messages, newest first, each with its sender and the beginning of its text. */
export function MessageList({ messages }: { messages: Message[] }) {
  const t = useT();
  return (
    <ul className="ws-list">
      {messages.map((m) => (
        <li key={m.ref} className="ws-item" data-unread={(!m.read && m.folder === "new") || undefined}>
          <h2 className="ws-item-title">
            <Link to={`/staff/messages/${m.ref}`}>
              <bdi>{m.name}</bdi>
            </Link>
            {!m.read && m.folder === "new" && <span className="ws-tag ws-unread">{t("messages.unread")}</span>}
          </h2>
          <p className="ws-meta">
            <Ltr>{m.email}</Ltr> · <When at={m.received} />
          </p>
          {/* The visitor's text in its own direction, whatever the workspace's. */}
          <p className="ws-excerpt" dir="auto">
            {excerpt(m.text)}
          </p>
        </li>
      ))}
    </ul>
  );
}

export function Messages() {
  const t = useT();
  usePageTitle("messages.title");
  const [params, setParams] = useSearchParams();
  const folderParam = params.get("folder");
  const folder: Folder = isFolder(folderParam) ? folderParam : "new";
  const q = params.get("q") ?? "";
  const [search, setSearch] = useState(q);
  useEffect(() => setSearch(q), [q]);
  const searchId = useId();
  const path = `/staff/api/messages?folder=${folder}&q=${encodeURIComponent(q)}`;
  const { data, error, loading } = useApi<MessagesResponse>(path);
  const [more, setMore] = useState<{ path: string; messages: Message[]; next: string } | null>(null);
  const { busy: moreBusy, problem: moreError, run } = useAction();
  const shown = more?.path === path ? more : null;
  const messages = [...(data?.messages ?? []), ...(shown?.messages ?? [])];
  const next = shown ? shown.next : (data?.next ?? "");

  const loadMore = () =>
    run(async () => {
      const page = await api<MessagesResponse>("GET", `${path}&after=${encodeURIComponent(next)}`);
      setMore({ path, messages: [...(shown?.messages ?? []), ...page.messages], next: page.next });
    });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const p = new URLSearchParams({ folder });
    if (search.trim()) p.set("q", search.trim());
    setParams(p);
  };
  return (
    <>
      <h1>{t("messages.title")}</h1>
      <Tabs label={t("messages.foldersLabel")} tabs={folders} current={folder} href={(f) => `/staff?folder=${f}`}>
        {(f) => (
          <>
            {t(`messages.folders.${f}`)}
            {data && <span className="ws-count">{data.counts[f]}</span>}
          </>
        )}
      </Tabs>
      {/* biome-ignore lint/a11y/useSemanticElements: role="search" on the form is the search landmark in every browser; a <search> element (2023) is none in older ones */}
      <form role="search" className="ws-search" onSubmit={submit}>
        <label htmlFor={searchId}>{t("messages.searchLabel")}</label>
        <div className="ws-row">
          <input id={searchId} type="search" name="q" value={search} onChange={(e) => setSearch(e.target.value)} />
          <Button type="submit">{t("messages.searchButton")}</Button>
          {q && (
            <Link className="ws-link-button" to={`/staff?folder=${folder}`}>
              {t("messages.clear")}
            </Link>
          )}
        </div>
      </form>
      <Pending loading={loading} error={error} />
      {data && messages.length === 0 && <p className="ws-empty">{q ? t("messages.emptySearch", { q }) : t("messages.empty")}</p>}
      {messages.length > 0 && <MessageList messages={messages} />}
      {moreError && <Problem error={moreError} />}
      {next && <More label={t("messages.more")} busy={moreBusy} failed={!!moreError} onMore={() => void loadMore()} />}
    </>
  );
}

/** replyLink opens the member's mail program with the visitor's message quoted. */
function replyLink(m: Message, subject: string, intro: string): string {
  const quoted = m.text
    .split("\n")
    .map((l) => `> ${l}`)
    .join("\n");
  const body = `\n\n${intro}\n${quoted}\n`;
  return `mailto:${encodeURIComponent(m.email)}?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(body)}`;
}

/**
 * useReplyLink is the reply to m written in the visitor's language, not the
 * member's: its subject and the line above the quote come from the
 * workspace's strings in that language (a chunk of their own), the date in
 * its conventions. Until they are loaded, null.
 */
function useReplyLink(m: Message | undefined): string | null {
  const { name, zone } = useBoot();
  const [link, setLink] = useState<{ ref: string; href: string } | null>(null);
  useEffect(() => {
    if (!m) return;
    let live = true;
    const visitor: Lang = isLang(m.lang) ? m.lang : defaultLang;
    void loadStrings(visitor).then((i18n) => {
      if (!live) return;
      const subject = i18n.t("messages.replySubject", { name });
      const intro = i18n.t("messages.replyQuote", { date: dateTime(visitor, m.received, zone), name: m.name });
      setLink({ ref: m.ref, href: replyLink(m, subject, intro) });
    });
    return () => {
      live = false;
    };
  }, [m, name, zone]);
  return link && m && link.ref === m.ref ? link.href : null;
}

export function MessageDetail() {
  const t = useT();
  const { ref = "" } = useParams();
  usePageTitle("messages.detailTitle");
  const { data, error, loading, set } = useApi<{ message: Message }>(`/staff/api/messages/${encodeURIComponent(ref)}`);
  const [done, setDone] = useState("");
  const { busy, problem: actionError, run } = useAction();
  const act = (path: string, body: unknown, doneText: string) => {
    setDone("");
    return run(async () => {
      set(await api<{ message: Message }>("POST", path, body));
      setDone(doneText);
    });
  };
  const m = data?.message;
  const service = m ? serviceKey(m.service) : null;
  const reply = useReplyLink(m);
  // Opening a message reads it, for the whole team.
  const unreadRef = m && !m.read ? m.ref : "";
  useEffect(() => {
    if (!unreadRef) return;
    api<{ message: Message }>("POST", `/staff/api/messages/${unreadRef}/read`, { read: true }).then(set, () => undefined);
  }, [unreadRef, set]);
  return (
    <>
      <BackLink to={m ? `/staff?folder=${m.folder}` : "/staff"}>{t("messages.back")}</BackLink>
      <Pending loading={loading} error={error} />
      {m && (
        <article className="ws-detail">
          <h1>{m.name}</h1>
          <dl className="ws-facts">
            <dt>{t("messages.email")}</dt>
            <dd>
              <Ltr>{m.email}</Ltr>
            </dd>
            <TimeFact label={t("messages.received")} at={m.received} />
            <dt>{t("messages.service")}</dt>
            <dd>{service ? t(service) : t("messages.noService")}</dd>
            <dt>{t("messages.language")}</dt>
            <dd>{languageName(t, m.lang)}</dd>
            <dt>{t("messages.folder")}</dt>
            <dd>
              {t(`messages.folders.${m.folder}`)}
              {m.handled && (
                <>
                  {" · "}
                  <When at={m.handled} />
                </>
              )}
            </dd>
            <dt>{t("messages.reference")}</dt>
            <dd>
              <Ltr>{m.ref}</Ltr>
            </dd>
          </dl>
          {m.folder === "spam" && (
            <p className="ws-notice ws-warn">{t(spamReasons[m.spamReason] ?? "messages.spamTooFast")}</p>
          )}
          <h2>{t("messages.text")}</h2>
          <div className="ws-message" dir="auto">
            {m.text}
          </div>
          <div className="ws-actions">
            {reply && (
              <a className="ws-button" href={reply} lang={language(isLang(m.lang) ? m.lang : defaultLang).tag}>
                {t("messages.reply")}
              </a>
            )}
            {m.folder === "new" && (
              <Button kind="quiet" disabled={busy} onClick={() => void act(`/staff/api/messages/${m.ref}/handled`, { handled: true }, t("messages.handledDone"))}>
                {t("messages.markHandled")}
              </Button>
            )}
            {m.folder === "handled" && (
              <Button kind="quiet" disabled={busy} onClick={() => void act(`/staff/api/messages/${m.ref}/handled`, { handled: false }, t("messages.reopenedDone"))}>
                {t("messages.markNew")}
              </Button>
            )}
            {m.folder !== "spam" && (
              <Button kind="quiet" disabled={busy} onClick={() => void act(`/staff/api/messages/${m.ref}/spam`, {}, t("messages.spamDone"))}>
                {t("messages.markSpam")}
              </Button>
            )}
            {m.folder === "spam" && (
              <Button kind="quiet" disabled={busy} onClick={() => void act(`/staff/api/messages/${m.ref}/not-spam`, {}, t("messages.notSpamDone"))}>
                {t("messages.notSpam")}
              </Button>
            )}
            {m.folder === "new" && m.read && (
              <Button kind="quiet" disabled={busy} onClick={() => void act(`/staff/api/messages/${m.ref}/read`, { read: false }, t("messages.unreadDone"))}>
                {t("messages.markUnread")}
              </Button>
            )}
          </div>
          {done && <Notice>{done}</Notice>}
          {actionError && <Problem error={actionError} />}
          <Notes path={`/staff/api/messages/${m.ref}`} />
        </article>
      )}
    </>
  );
}
