import { useId, useState, type FormEvent } from "react";
import { api } from "./api";
import { dateTime } from "./format";
import { useAction, useApi, useBoot } from "./hooks";
import { useT } from "./i18n";
import type { Booking } from "./types";
import { Button, FieldError, Ltr, Notice, Problem } from "./ui";

/** Host is a person who takes consultations, named in the member's language. */
export interface Host {
  slug: string;
  name: string;
  /** services are those they take: a booking of one of them can be handed to them. */
  services: string[];
}

/** HostsResponse is the consultancy's hosts and which one the member is ("" for none). */
export interface HostsResponse {
  hosts: Host[];
  mine: string;
}

/** useHosts loads the hosts once per page. */
export function useHosts(): HostsResponse {
  const { data } = useApi<HostsResponse>("/staff/api/hosts");
  return data ?? { hosts: [], mine: "" };
}

/** hostName names the host slug, or says nothing for a booking without one. */
export function hostName(hosts: HostsResponse, slug: string): string {
  if (!slug) return "";
  return hosts.hosts.find((h) => h.slug === slug)?.name ?? slug;
}

/** HostFilter chooses whose bookings the lists show: everyone's, the member's own, or one host's. */
export function HostFilter({ hosts, value, onChange }: { hosts: HostsResponse; value: string; onChange: (host: string) => void }) {
  const t = useT();
  const id = useId();
  if (hosts.hosts.length === 0) return null;
  return (
    <div className="ws-form ws-host-filter">
      <label htmlFor={id}>{t("hosts.filterLabel")}</label>
      <select id={id} name="host" value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">{t("hosts.everyone")}</option>
        {hosts.mine && <option value="mine">{t("hosts.mine")}</option>}
        {hosts.hosts.map((h) => (
          <option key={h.slug} value={h.slug}>
            {h.name}
          </option>
        ))}
      </select>
    </div>
  );
}

/** HandOverForm gives an upcoming booking to another host of its service, who must be free then; none for a booking without a host. */
export function HandOverForm({ b, hosts, onDone }: { b: Booking; hosts: HostsResponse; onDone: (b: Booking) => void }) {
  const t = useT();
  const [to, setTo] = useState("");
  const [done, setDone] = useState("");
  const { busy, problem, run } = useAction();
  const id = useId();
  const errorId = useId();
  const others = hosts.hosts.filter((h) => h.slug !== b.host && h.services.includes(b.service));
  if (!b.host || others.length === 0) return null;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setDone("");
    return run(async () => {
      const res = await api<{ booking: Booking }>("POST", `/staff/api/bookings/${b.id}/hand-over`, { host: to });
      onDone(res.booking);
      setDone(hostName(hosts, res.booking.host));
      setTo("");
    });
  };
  return (
    <form className="ws-form ws-box" onSubmit={(e) => void submit(e)}>
      <h2>{t("hosts.handOverTitle")}</h2>
      <p className="ws-hint">{t("hosts.handOverHint")}</p>
      <label htmlFor={id}>{t("hosts.handOverTo")}</label>
      <select
        id={id}
        name="host"
        value={to}
        onChange={(e) => setTo(e.target.value)}
        aria-invalid={problem?.fields.host ? true : undefined}
        aria-describedby={problem?.fields.host ? errorId : undefined}
      >
        <option value="">{t("hosts.choose")}</option>
        {others.map((h) => (
          <option key={h.slug} value={h.slug}>
            {h.name}
          </option>
        ))}
      </select>
      {problem?.fields.host && <FieldError id={errorId}>{problem.fields.host}</FieldError>}
      {problem && !problem.fields.host && <Problem error={problem} />}
      {done && <Notice>{t("hosts.handedOver", { name: done })}</Notice>}
      <div>
        <Button type="submit" disabled={busy || to === ""}>
          {t("hosts.handOver")}
        </Button>
      </div>
    </form>
  );
}

interface Feed {
  id: number;
  shown: string;
  created: string;
}

interface FeedsResponse {
  feeds: Feed[];
  host: string;
  private: string | null;
}

/**
 * CalendarFeeds is the member's calendars on their account page: the
 * feeds of their own busy time (shown masked, never whole), and their
 * private feed of their own consultations, whose address is shown once.
 */
export function CalendarFeeds() {
  const t = useT();
  const { lang, zone } = useBoot();
  const { data, set } = useApi<FeedsResponse>("/staff/api/me/feeds");
  const [url, setUrl] = useState("");
  const [address, setAddress] = useState("");
  const [notice, setNotice] = useState("");
  const { busy, problem, run } = useAction();
  const urlId = useId();
  const urlError = useId();
  const urlHint = useId();
  if (!data) return null;
  const add = (e: FormEvent) => {
    e.preventDefault();
    setNotice("");
    return run(async () => {
      // The feed is read as it is added: the answer says whether its busy times count already.
      const res = await api<{ feed: Feed; read: boolean }>("POST", "/staff/api/me/feeds", { url });
      set({ ...data, feeds: [...data.feeds.filter((f) => f.id !== res.feed.id), res.feed] });
      setUrl("");
      setNotice(!data.host ? t("calendars.feedSaved") : res.read ? t("calendars.feedAdded") : t("calendars.feedNotRead"));
    });
  };
  const remove = (id: number) =>
    run(async () => {
      await api("DELETE", `/staff/api/me/feeds/${id}`);
      set({ ...data, feeds: data.feeds.filter((f) => f.id !== id) });
      setNotice(t("calendars.feedRemoved"));
    });
  const renew = () =>
    run(async () => {
      const res = await api<{ url: string }>("POST", "/staff/api/me/calendar", {});
      setAddress(res.url);
      set({ ...data, private: new Date().toISOString() });
      setNotice("");
    });
  const revoke = () =>
    run(async () => {
      await api("DELETE", "/staff/api/me/calendar");
      setAddress("");
      set({ ...data, private: null });
      setNotice(t("calendars.privateRevoked"));
    });
  return (
    <>
      <section aria-labelledby="ws-feeds-title">
        <h2 id="ws-feeds-title">{t("calendars.feedsTitle")}</h2>
        <p>{t(data.host ? "calendars.feedsIntro" : "calendars.feedsNotHost")}</p>
        {notice && <Notice>{notice}</Notice>}
        {problem && !problem.fields.url && <Problem error={problem} />}
        <ul className="ws-list">
          {data.feeds.map((f) => (
            <li key={f.id} className="ws-item ws-passkey">
              <div>
                <h3 className="ws-item-title">
                  <Ltr>{f.shown}</Ltr>
                </h3>
                <p className="ws-meta">{t("calendars.feedAddedOn", { date: dateTime(lang, f.created, zone) })}</p>
              </div>
              <Button kind="quiet" disabled={busy} onClick={() => void remove(f.id)} aria-label={t("calendars.removeFeedLabel", { feed: f.shown })}>
                {t("calendars.removeFeed")}
              </Button>
            </li>
          ))}
        </ul>
        <form className="ws-form" onSubmit={(e) => void add(e)}>
          <label htmlFor={urlId}>{t("calendars.feedURL")}</label>
          <p id={urlHint} className="ws-hint">
            {t("calendars.feedURLHint")}
          </p>
          <div className="ws-row">
            <input
              id={urlId}
              type="url"
              name="url"
              dir="ltr"
              autoComplete="off"
              spellCheck={false}
              required
              value={url}
              onChange={(e) => setUrl(e.target.value)}
              aria-invalid={problem?.fields.url ? true : undefined}
              aria-describedby={problem?.fields.url ? `${urlHint} ${urlError}` : urlHint}
            />
            <Button type="submit" disabled={busy || url.trim() === ""}>
              {t("calendars.addFeed")}
            </Button>
          </div>
          {problem?.fields.url && <FieldError id={urlError}>{problem.fields.url}</FieldError>}
        </form>
      </section>
      <section aria-labelledby="ws-private-title">
        <h2 id="ws-private-title">{t("calendars.privateTitle")}</h2>
        <p>{t("calendars.privateIntro")}</p>
        {address && (
          <div className="ws-notice" role="status">
            <p>{t("calendars.privateShownOnce")}</p>
            <p>
              <Ltr>
                <code className="ws-secret">{address}</code>
              </Ltr>
            </p>
          </div>
        )}
        {data.private && !address && <p className="ws-meta">{t("calendars.privateSince", { date: dateTime(lang, data.private, zone) })}</p>}
        <div className="ws-actions">
          <Button disabled={busy} onClick={() => void renew()}>
            {t(data.private ? "calendars.privateRenew" : "calendars.privateMake")}
          </Button>
          {data.private && (
            <Button kind="danger" disabled={busy} onClick={() => void revoke()}>
              {t("calendars.privateRevoke")}
            </Button>
          )}
        </div>
      </section>
    </>
  );
}
