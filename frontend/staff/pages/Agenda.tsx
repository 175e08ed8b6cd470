import { useEffect, useId, useState, type FormEvent } from "react";
import { Link, useNavigate, useSearchParams } from "react-router-dom";
import { meetingOf, serviceKeys } from "../../components/schedule/services";
import { languages } from "../../lib/languages";
import { api } from "../api";
import { day, isoDate, shortDay, time } from "../format";
import { useAction, useApi, useBoot, usePageTitle } from "../hooks";
import { hostName, useHosts } from "../hosts";
import { useT } from "../i18n";
import { serviceKey } from "../labels";
import type { Booking } from "../types";
import { BackLink, Button, FieldError, Notice, Pending, Problem } from "../ui";
import { useZoneName, useZones } from "../zones";

/** consultations are the services a visitor books (content/availability.json). */
const consultations = serviceKeys;

/** addDays is the date days after date (YYYY-MM-DD). */
function addDays(date: string, days: number): string {
  const [y, m, d] = date.split("-").map(Number);
  return new Date(Date.UTC(y ?? 1970, (m ?? 1) - 1, (d ?? 1) + days)).toISOString().slice(0, 10);
}

interface SlotsResponse {
  days: { date: string; slots: { start: string; end: string }[] }[];
}

/** lookAhead is how many days the picker looks at to open on the first with free times (the API's most). */
const lookAhead = 31;

/**
 * SlotPicker offers the free times of a service on a day in the
 * consultancy's zone, the visitor's own choice (/api/slots): the same
 * times, minimum notice and limits. value is the chosen start. It opens on
 * the first day with free times (today's, if any are left), until a day is
 * picked.
 */
function SlotPicker({ service, value, onChange, error }: { service: string; value: string; onChange: (start: string) => void; error?: string }) {
  const t = useT();
  const { lang, zone } = useBoot();
  const zoneName = useZoneName();
  const [today] = useState(() => isoDate(new Date(), zone));
  const [picked, setPicked] = useState<string | null>(null);
  const dateId = useId();
  const errorId = useId();
  const slotsPath = (from: string, days: number) =>
    `/api/slots?service=${encodeURIComponent(service)}&from=${encodeURIComponent(from)}&days=${days}&tz=${encodeURIComponent(zone)}`;
  // Until a day is picked, the weeks ahead, to find the first day with free times.
  const { data, error: loadError, loading } = useApi<SlotsResponse>(picked ? slotsPath(picked, 1) : slotsPath(today, lookAhead));
  const firstOpen = picked ? undefined : data?.days.find((d) => d.slots.length > 0)?.date;
  // Without free times in the weeks ahead, tomorrow, the day one books by hand most often; nothing while they load.
  const date = picked ?? firstOpen ?? (data ? addDays(today, 1) : "");
  const slots = data?.days.find((d) => d.date === date)?.slots ?? [];
  return (
    <div className="ws-form ws-slots">
      <label htmlFor={dateId}>{t("agenda.day")}</label>
      <input id={dateId} type="date" value={date} onChange={(e) => e.target.value && setPicked(e.target.value)} />
      <fieldset aria-invalid={error ? true : undefined} aria-describedby={error ? errorId : undefined}>
        <legend>{t("agenda.time", { zone: zoneName(zone) })}</legend>
        <Pending loading={loading} error={loadError} />
        {data && slots.length === 0 && <p className="ws-empty">{t("agenda.noTime")}</p>}
        <div className="ws-slot-list">
          {slots.map((s) => (
            <label key={s.start} className="ws-slot">
              <input type="radio" name="start" value={s.start} checked={value === s.start} onChange={() => onChange(s.start)} />
              <time dateTime={s.start}>{time(lang, s.start, zone)}</time>
            </label>
          ))}
        </div>
      </fieldset>
      {error && <FieldError id={errorId}>{error}</FieldError>}
    </div>
  );
}

/** MoveForm moves a standing booking to another free time on its visitor's behalf; they get the "moved" mail. */
export function MoveForm({ b, onMoved }: { b: Booking; onMoved: (b: Booking) => void }) {
  const t = useT();
  const [start, setStart] = useState("");
  const [done, setDone] = useState(false);
  const { busy, problem, run } = useAction();
  const move = (e: FormEvent) => {
    e.preventDefault();
    setDone(false);
    return run(async () => {
      const res = await api<{ booking: Booking }>("POST", `/staff/api/bookings/${b.id}/move`, { start });
      onMoved(res.booking);
      setDone(true);
      setStart("");
    });
  };
  return (
    <form className="ws-form ws-box" onSubmit={(e) => void move(e)}>
      <h2>{t("agenda.moveTitle")}</h2>
      <p className="ws-hint">{t("agenda.moveHint")}</p>
      <SlotPicker service={b.service} value={start} onChange={setStart} error={problem?.fields.start} />
      {problem && !problem.fields.start && <Problem error={problem} />}
      {done && <Notice>{t("agenda.moved")}</Notice>}
      <div>
        <Button type="submit" disabled={busy || start === ""}>
          {t("agenda.move")}
        </Button>
      </div>
    </form>
  );
}

/** NoShow marks that the visitor did not come to a consultation that has begun, or takes it back. */
export function NoShow({ b, onChange }: { b: Booking; onChange: (b: Booking) => void }) {
  const t = useT();
  const { busy, problem, run } = useAction();
  const mark = (noShow: boolean) =>
    run(async () => {
      onChange((await api<{ booking: Booking }>("POST", `/staff/api/bookings/${b.id}/no-show`, { noShow })).booking);
    });
  return (
    <div className="ws-actions">
      {b.status === "noShow" ? (
        <Button kind="quiet" disabled={busy} onClick={() => void mark(false)}>
          {t("agenda.cameAfterAll")}
        </Button>
      ) : (
        <Button kind="quiet" disabled={busy} onClick={() => void mark(true)}>
          {t("agenda.markNoShow")}
        </Button>
      )}
      {problem && <Problem error={problem} />}
    </div>
  );
}

/** NewBooking books a consultation for someone who called in: they get the confirmation and the invite, as if they had booked. */
export function NewBooking() {
  const t = useT();
  const { lang, zone } = useBoot();
  const navigate = useNavigate();
  usePageTitle("agenda.newTitle");
  const [service, setService] = useState<(typeof consultations)[number]>(consultations[0]);
  const [start, setStart] = useState("");
  // Where the service may be a phone or a video call, the member says which the caller chose: the phone until they do.
  const declared = meetingOf(service);
  const [meeting, setMeeting] = useState<"phone" | "video">("phone");
  const byPhone = declared === "phone" || (declared === "either" && meeting === "phone");
  const [fields, setFields] = useState({ name: "", email: "", phone: "", company: "", topic: "", timeZone: zone, lang: lang as string });
  const { busy, problem, run } = useAction();
  const ids = { service: useId(), meeting: useId(), name: useId(), email: useId(), phone: useId(), company: useId(), topic: useId(), timeZone: useId(), lang: useId() };
  const zones = useZones(typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [zone]);
  // A service's times differ: a new service asks for a time again.
  // biome-ignore lint/correctness/useExhaustiveDependencies(service): the choice of a time belongs to the service
  useEffect(() => setStart(""), [service]);
  const field = (name: keyof typeof fields) => ({
    id: ids[name],
    name,
    value: fields[name],
    onChange: (e: { target: { value: string } }) => setFields((f) => ({ ...f, [name]: e.target.value })),
    "aria-invalid": problem?.fields[name] ? true : undefined,
    "aria-describedby": problem?.fields[name] ? `${ids[name]}-error` : undefined,
  });
  const fieldError = (name: keyof typeof fields) => problem?.fields[name] && <FieldError id={`${ids[name]}-error`}>{problem.fields[name]}</FieldError>;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const body: Record<string, string> = { service, start, name: fields.name, email: fields.email, timeZone: fields.timeZone, lang: fields.lang };
    if (declared === "either") body.meeting = meeting;
    // A number nobody will call is not sent (the server refuses it).
    if (byPhone && fields.phone.trim()) body.phone = fields.phone;
    for (const k of ["company", "topic"] as const) if (fields[k].trim()) body[k] = fields[k];
    // The booking's page takes this one's place: busy ends with it.
    return run(async () => {
      const res = await api<{ booking: Booking }>("POST", "/staff/api/bookings", body);
      navigate(`/staff/bookings/${res.booking.id}?booked=1`);
    });
  };
  return (
    <>
      <BackLink to="/staff/bookings">{t("bookings.back")}</BackLink>
      <h1>{t("agenda.newTitle")}</h1>
      <p className="ws-hint">{t("agenda.newHint")}</p>
      <form className="ws-form" onSubmit={(e) => void submit(e)} noValidate>
        <label htmlFor={ids.service}>{t("bookings.service")}</label>
        <select id={ids.service} name="service" value={service} onChange={(e) => setService(e.target.value as (typeof consultations)[number])}>
          {consultations.map((s) => {
            const key = serviceKey(s);
            return (
              <option key={s} value={s}>
                {key ? t(key) : s}
              </option>
            );
          })}
        </select>
        <SlotPicker service={service} value={start} onChange={setStart} error={problem?.fields.start} />
        <label htmlFor={ids.name}>{t("agenda.name")}</label>
        <input {...field("name")} autoComplete="off" dir="auto" required />
        {fieldError("name")}
        <label htmlFor={ids.email}>{t("bookings.email")}</label>
        <input {...field("email")} type="email" dir="ltr" autoComplete="off" required />
        {fieldError("email")}
        {declared === "either" && (
          <fieldset
            className="ws-choice"
            aria-invalid={problem?.fields.meeting ? true : undefined}
            aria-describedby={problem?.fields.meeting ? `${ids.meeting}-error` : undefined}
          >
            <legend>{t("agenda.meetingLegend")}</legend>
            {(["phone", "video"] as const).map((kind) => (
              <label key={kind}>
                <input type="radio" name="meeting" value={kind} checked={meeting === kind} onChange={() => setMeeting(kind)} />
                {t(kind === "phone" ? "agenda.meetingPhone" : "agenda.meetingVideo")}
              </label>
            ))}
          </fieldset>
        )}
        {problem?.fields.meeting && <FieldError id={`${ids.meeting}-error`}>{problem.fields.meeting}</FieldError>}
        {byPhone && (
          <>
            <label htmlFor={ids.phone}>{t("agenda.phone")}</label>
            <input {...field("phone")} type="tel" dir="ltr" autoComplete="off" required />
            {fieldError("phone")}
          </>
        )}
        <label htmlFor={ids.company}>{t("bookings.company")}</label>
        <input {...field("company")} dir="auto" autoComplete="off" />
        {fieldError("company")}
        <label htmlFor={ids.topic}>{t("bookings.topic")}</label>
        <textarea {...field("topic")} rows={3} dir="auto" />
        {fieldError("topic")}
        <label htmlFor={ids.lang}>{t("agenda.visitorLanguage")}</label>
        <select {...field("lang")}>
          {languages.map((l) => (
            <option key={l.code} value={l.code} lang={l.tag}>
              {l.label}
            </option>
          ))}
        </select>
        <label htmlFor={ids.timeZone}>{t("agenda.visitorZone")}</label>
        <select {...field("timeZone")}>
          {zones.map((z) => (
            <option key={z.id} value={z.id}>
              {z.label}
            </option>
          ))}
        </select>
        {fieldError("timeZone")}
        {problem && Object.keys(problem.fields).length === 0 && <Problem error={problem} />}
        <div>
          <Button type="submit" disabled={busy || start === ""}>
            {t("agenda.book")}
          </Button>
        </div>
      </form>
    </>
  );
}

interface WeekResponse {
  days: { date: string; bookings: Booking[] }[];
  prev: string;
  next: string;
}

/** Week is the agenda's week, Monday to Sunday in the consultancy's zone: a column a day on a screen, a day under the other on a phone. */
export function Week() {
  const t = useT();
  const { lang, zone } = useBoot();
  const [params] = useSearchParams();
  const date = params.get("date") ?? "";
  const { data, error, loading } = useApi<WeekResponse>(`/staff/api/week?date=${encodeURIComponent(date)}`);
  const hosts = useHosts();
  const today = isoDate(new Date(), zone);
  return (
    <>
      <Pending loading={loading} error={error} />
      {data && (
        <>
          <nav className="ws-week-nav" aria-label={t("agenda.weeks")}>
            <Link to={`/staff/bookings?view=week&date=${data.prev}`}>{t("agenda.prevWeek")}</Link>
            <Link to="/staff/bookings?view=week">{t("agenda.thisWeek")}</Link>
            <Link to={`/staff/bookings?view=week&date=${data.next}`}>{t("agenda.nextWeek")}</Link>
          </nav>
          <div className="ws-week">
            {data.days.map((d) => (
              <section key={d.date} className="ws-week-day" aria-labelledby={`week-${d.date}`} data-today={d.date === today || undefined}>
                <h2 id={`week-${d.date}`}>
                  <abbr title={day(lang, d.date)}>{shortDay(lang, d.date)}</abbr>
                </h2>
                {d.bookings.length === 0 ? (
                  <p className="ws-empty">{t("agenda.free")}</p>
                ) : (
                  <ul className="ws-list">
                    {d.bookings.map((b) => {
                      const key = serviceKey(b.service);
                      return (
                        <li key={b.id} className="ws-item" data-status={b.status}>
                          <p className="ws-when">
                            <time dateTime={b.start}>{time(lang, b.start, zone)}</time>
                            {" – "}
                            <time dateTime={b.end}>{time(lang, b.end, zone)}</time>
                          </p>
                          <h3 className="ws-item-title">
                            <Link to={`/staff/bookings/${b.id}`}>
                              <bdi>{b.name || t("bookings.erasedName")}</bdi>
                            </Link>
                          </h3>
                          <p className="ws-meta">
                            {key ? t(key) : b.service}
                            {b.host && <> · {t("hosts.with", { name: hostName(hosts, b.host) })}</>}
                            {b.status !== "upcoming" && <> · {t(`bookings.status.${b.status}`)}</>}
                          </p>
                        </li>
                      );
                    })}
                  </ul>
                )}
              </section>
            ))}
          </div>
        </>
      )}
    </>
  );
}
