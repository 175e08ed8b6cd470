import { useEffect, useId, useState, type FormEvent } from "react";
import { Link, useParams, useSearchParams } from "react-router-dom";
import { api } from "../api";
import { dateTime, day, time } from "../format";
import { useAction, useApi, useBoot, usePageTitle } from "../hooks";
import { useT } from "../i18n";
import { languageName, serviceKey } from "../labels";
import type { Booking, BookingsResponse, View } from "../types";
import { HandOverForm, HostFilter, hostName, useHosts, type HostsResponse } from "../hosts";
import { Notes } from "../notes";
import { BackLink, Button, FieldError, List, Ltr, More, Notice, Pending, Problem, Tabs, TimeFact, When } from "../ui";
import { useZoneName } from "../zones";
import { MoveForm, NoShow, Week } from "./Agenda";

/** Tab is a view of the agenda: the lists, and the week. */
type Tab = View | "week";

const tabs: Tab[] = ["upcoming", "week", "past", "cancelled"];

function isTab(v: string | null): v is Tab {
  return v === "upcoming" || v === "week" || v === "past" || v === "cancelled";
}

/** BookingLine is a booking in a list: its time, its service and who booked it. */
function BookingLine({ b, withDate, hosts }: { b: Booking; withDate: boolean; hosts: HostsResponse }) {
  const t = useT();
  const { lang, zone } = useBoot();
  const service = serviceKey(b.service);
  // Under a day's heading (h2) in the agenda; right under the page's h1 in a flat list.
  const Heading = withDate ? "h2" : "h3";
  return (
    <li className="ws-item ws-booking">
      <p className="ws-when">
        <time dateTime={b.start}>{withDate ? dateTime(lang, b.start, zone) : `${time(lang, b.start, zone)} – ${time(lang, b.end, zone)}`}</time>
      </p>
      <div>
        <Heading className="ws-item-title">
          <Link to={`/staff/bookings/${b.id}`}>{b.name || t("bookings.erasedName")}</Link>
        </Heading>
        <p className="ws-meta">
          {service ? t(service) : b.service}
          {b.host && <> · {t("hosts.with", { name: hostName(hosts, b.host) })}</>}
          {b.company && <> · {b.company}</>}
          {b.status === "ongoing" && <> · {t("bookings.status.ongoing")}</>}
        </p>
      </div>
    </li>
  );
}

/** Day is a day of the agenda with its bookings. */
type Day = { date: string; bookings: Booking[] };

/** joinDays appends a page's days to those shown: a day cut by the end of a page goes on. */
function joinDays(shown: Day[], page: Day[]): Day[] {
  const last = shown[shown.length - 1];
  const [first, ...rest] = page;
  if (last && first && last.date === first.date) {
    return [...shown.slice(0, -1), { date: last.date, bookings: [...last.bookings, ...first.bookings] }, ...rest];
  }
  return [...shown, ...page];
}

export function Bookings() {
  const t = useT();
  const { zone, lang } = useBoot();
  const zoneName = useZoneName();
  usePageTitle("bookings.title");
  const [params, setParams] = useSearchParams();
  const viewParam = params.get("view");
  const tab: Tab = isTab(viewParam) ? viewParam : "upcoming";
  const q = tab === "week" ? "" : (params.get("q") ?? "");
  const [search, setSearch] = useState(q);
  useEffect(() => setSearch(q), [q]);
  const searchId = useId();
  // The week has a request of its own; the lists' answer brings the counts of the tabs.
  const view: View = tab === "week" ? "upcoming" : tab;
  const host = params.get("host") ?? "";
  const hosts = useHosts();
  const path = `/staff/api/bookings?view=${view}&q=${encodeURIComponent(q)}&host=${encodeURIComponent(host)}`;
  /** listPath is the list of view with the current host filter. */
  const listPath = (v: string, more: Record<string, string> = {}) => {
    const p = new URLSearchParams({ view: v, ...more });
    if (host) p.set("host", host);
    return `/staff/bookings?${p}`;
  };
  const { data, error, loading } = useApi<BookingsResponse>(path);
  const [more, setMore] = useState<{ path: string; days: Day[]; bookings: Booking[]; next: string } | null>(null);
  const { busy, problem, run } = useAction();
  const shown = more?.path === path ? more : null;
  const days = shown ? shown.days : (data?.days ?? []);
  const bookings = shown ? shown.bookings : (data?.bookings ?? []);
  const next = shown ? shown.next : (data?.next ?? "");
  const loadMore = () =>
    run(async () => {
      const page = await api<BookingsResponse>("GET", `${path}&after=${encodeURIComponent(next)}`);
      setMore({ path, days: joinDays(days, page.days ?? []), bookings: [...bookings, ...(page.bookings ?? [])], next: page.next });
    });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const p = new URLSearchParams({ view });
    if (search.trim()) p.set("q", search.trim());
    if (host) p.set("host", host);
    setParams(p);
  };
  return (
    <>
      <h1>{t("bookings.title")}</h1>
      <p className="ws-actions">
        <Link className="ws-button" to="/staff/bookings/new">
          {t("agenda.newTitle")}
        </Link>
      </p>
      <Tabs label={t("bookings.viewsLabel")} tabs={tabs} current={tab} href={(v) => (v === "week" ? `/staff/bookings?view=${v}` : listPath(v))}>
        {(v) => (
          <>
            {t(`bookings.views.${v}`)}
            {/* The counts follow the host filter: one host's beside their lists, the team's without. */}
            {data && v !== "week" && <span className="ws-count">{data.counts[v]}</span>}
          </>
        )}
      </Tabs>
      <p className="ws-hint">{t("bookings.zone", { zone: zoneName(zone) })}</p>
      {tab === "week" && <Week />}
      {tab !== "week" && (
        <HostFilter
          hosts={hosts}
          value={host}
          onChange={(h) => {
            const p = new URLSearchParams({ view });
            if (q) p.set("q", q);
            if (h) p.set("host", h);
            setParams(p);
          }}
        />
      )}
      {tab !== "week" && (
        // biome-ignore lint/a11y/useSemanticElements: role="search" on the form is the search landmark in every browser; a <search> element (2023) is none in older ones
        <form role="search" className="ws-search" onSubmit={submit}>
          <label htmlFor={searchId}>{t("bookings.searchLabel")}</label>
          <div className="ws-row">
            <input id={searchId} type="search" name="q" value={search} onChange={(e) => setSearch(e.target.value)} />
            <Button type="submit">{t("bookings.searchButton")}</Button>
            {q && (
              <Link className="ws-link-button" to={listPath(view)}>
                {t("bookings.clear")}
              </Link>
            )}
          </div>
        </form>
      )}
      {tab !== "week" && <Pending loading={loading} error={error} />}
      {tab !== "week" &&
        data?.days &&
        (days.length === 0 ? (
          <p className="ws-empty">{q ? t("bookings.emptySearch", { q }) : t("bookings.emptyUpcoming")}</p>
        ) : (
          days.map((d) => (
            <section key={d.date} className="ws-day" aria-labelledby={`day-${d.date}`}>
              <h2 id={`day-${d.date}`}>{day(lang, d.date)}</h2>
              <ul className="ws-list">
                {d.bookings.map((b) => (
                  <BookingLine key={b.id} b={b} withDate={false} hosts={hosts} />
                ))}
              </ul>
            </section>
          ))
        ))}
      {tab !== "week" && data?.bookings && (
        <List items={bookings} empty={q ? t("bookings.emptySearch", { q }) : t("bookings.empty")} item={(b) => <BookingLine key={b.id} b={b} withDate hosts={hosts} />} />
      )}
      {tab !== "week" && problem && <Problem error={problem} />}
      {tab !== "week" && next && (
        <More label={t(view === "upcoming" ? "bookings.moreLater" : "bookings.moreEarlier")} busy={busy} failed={!!problem} onMore={() => void loadMore()} />
      )}
    </>
  );
}

export function BookingDetail() {
  const t = useT();
  const { lang, zone } = useBoot();
  const zoneName = useZoneName();
  const { id = "" } = useParams();
  const [params] = useSearchParams();
  const booked = params.get("booked") === "1";
  usePageTitle("bookings.detailTitle");
  const { data, error, loading, set } = useApi<{ booking: Booking }>(`/staff/api/bookings/${encodeURIComponent(id)}`);
  const hosts = useHosts();
  const [reason, setReason] = useState("");
  const [confirming, setConfirming] = useState(false);
  const [done, setDone] = useState(false);
  const { busy, problem, run } = useAction();
  const reasonId = useId();
  const reasonError = useId();
  const reasonHint = useId();
  const b = data?.booking;
  const service = b ? serviceKey(b.service) : null;

  const cancel = async (e: FormEvent) => {
    e.preventDefault();
    if (!confirming) {
      setConfirming(true);
      return;
    }
    await run(async () => {
      set(await api<{ booking: Booking }>("POST", `/staff/api/bookings/${id}/cancel`, { reason }));
      setDone(true);
    });
    setConfirming(false);
  };
  return (
    <>
      <BackLink to="/staff/bookings">{t("bookings.back")}</BackLink>
      <Pending loading={loading} error={error} />
      {b && (
        <article className="ws-detail">
          <h1>{b.name || t("bookings.erasedName")}</h1>
          <dl className="ws-facts">
            <dt>{t("bookings.status.label")}</dt>
            <dd>{t(`bookings.status.${b.status}`)}</dd>
            <dt>{t("bookings.service")}</dt>
            <dd>{service ? t(service) : b.service}</dd>
            {b.host && (
              <>
                <dt>{t("hosts.host")}</dt>
                <dd>{hostName(hosts, b.host)}</dd>
              </>
            )}
            <dt>{t("bookings.when")}</dt>
            <dd>
              <When at={b.start} /> – <time dateTime={b.end}>{time(lang, b.end, zone)}</time>
            </dd>
            <dt>{t("bookings.theirTime")}</dt>
            <dd>
              <time dateTime={b.start}>{dateTime(lang, b.start, b.timeZone)}</time>
              {" · "}
              <bdi>{zoneName(b.timeZone)}</bdi>
            </dd>
            <dt>{t("bookings.email")}</dt>
            <dd>{b.email ? <Ltr>{b.email}</Ltr> : "—"}</dd>
            {b.phone && (
              <>
                <dt>{t("bookings.phone")}</dt>
                <dd>
                  <a href={`tel:${b.phone.replace(/[^\d+]/g, "")}`}>
                    <Ltr>{b.phone}</Ltr>
                  </a>
                </dd>
              </>
            )}
            {b.meeting && (
              <>
                <dt>{t("bookings.meeting")}</dt>
                <dd>
                  <a href={b.meeting} target="_blank" rel="noopener noreferrer">
                    <Ltr>{b.meeting}</Ltr>
                  </a>
                </dd>
              </>
            )}
            <dt>{t("bookings.company")}</dt>
            <dd>{b.company || "—"}</dd>
            <dt>{t("bookings.language")}</dt>
            <dd>{languageName(t, b.lang)}</dd>
            <TimeFact label={t("bookings.booked")} at={b.created} />
            <TimeFact label={t("bookings.cancelledAt")} at={b.cancelled} />
            {b.cancelled && b.cancelReason && (
              <>
                <dt>{t("bookings.cancelReason")}</dt>
                <dd dir="auto" className="cancel-reason-text">
                  {b.cancelReason}
                </dd>
              </>
            )}
            {b.bookedBy && (
              <>
                <dt>{t("agenda.bookedBy")}</dt>
                <dd>
                  <Ltr>{b.bookedBy}</Ltr>
                </dd>
              </>
            )}
            <dt>{t("bookings.number")}</dt>
            <dd>
              <Ltr>{b.id}</Ltr>
            </dd>
          </dl>
          <h2>{t("bookings.topic")}</h2>
          <div className="ws-message" dir="auto">
            {b.topic || t("bookings.noTopic")}
          </div>
          {b.email && (
            <p className="ws-actions">
              <a className="ws-button ws-quiet" href={`mailto:${encodeURIComponent(b.email)}`}>
                {t("bookings.write")}
              </a>
            </p>
          )}
          {booked && <Notice>{t("agenda.booked")}</Notice>}
          {(b.status === "past" || b.status === "ongoing" || b.status === "noShow") && <NoShow b={b} onChange={(nb) => set({ booking: nb })} />}
          {b.status === "upcoming" && <MoveForm b={b} onMoved={(nb) => set({ booking: nb })} />}
          {b.status === "upcoming" && <HandOverForm b={b} hosts={hosts} onDone={(nb) => set({ booking: nb })} />}
          <Notes path={`/staff/api/bookings/${b.id}`} />
          {done && <Notice>{t("bookings.cancelDone")}</Notice>}
          {b.status === "upcoming" && (
            <form className="ws-form ws-danger-zone" onSubmit={(e) => void cancel(e)}>
              <h2>{t("bookings.cancelTitle")}</h2>
              <p id={reasonHint}>{t("bookings.cancelHint")}</p>
              <label htmlFor={reasonId}>{t("bookings.reason")}</label>
              <textarea
                id={reasonId}
                name="reason"
                rows={3}
                maxLength={500}
                required
                value={reason}
                onChange={(e) => {
                  setReason(e.target.value);
                  setConfirming(false);
                }}
                aria-invalid={problem?.fields.reason ? true : undefined}
                aria-describedby={problem?.fields.reason ? `${reasonHint} ${reasonError}` : reasonHint}
              />
              {problem?.fields.reason && <FieldError id={reasonError}>{problem.fields.reason}</FieldError>}
              {problem && !problem.fields.reason && <Problem error={problem} />}
              {confirming && (
                <p className="ws-notice ws-warn" role="alert">
                  {t("bookings.cancelConfirm")}
                </p>
              )}
              <Button type="submit" kind="danger" disabled={busy || reason.trim() === ""}>
                {confirming ? t("bookings.cancelYes") : t("bookings.cancel")}
              </Button>
            </form>
          )}
        </article>
      )}
    </>
  );
}
