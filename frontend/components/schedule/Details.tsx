import { useId, useRef, useState, type ChangeEvent, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { isolate } from "../../lib/bidi";
import { useLang, useLocalPath } from "../../lib/lang";
import { postBooking, type CreatedBooking } from "./api";
import type { HostCard } from "./hosts";
import { draftOf, updateDraft, type DetailField as Field } from "./draft";
import { meetingOf, type ServiceKey } from "./services";
import { dateIn } from "./dates";
import type { Slot, SlotsResponse } from "./slots";
import { formatDay, formatTime } from "./time";

const fields: readonly Field[] = ["name", "email", "phone", "company", "topic"];

/** honeypotField is hidden from people; bots that fill every input give themselves away. */
const honeypotField = "website";

export interface DetailsProps {
  service: ServiceKey;
  /** person is the host the visitor asked for, or null to let the service assign one. */
  person?: string | null;
  zone: string;
  /** zoneCity names the zone in the summary ("New York"). */
  zoneCity: string;
  slot: Slot | null;
  onBooked: (booking: CreatedBooking, email: string) => void;
  /** onTaken reports a lost race: the message to announce, the fresh slots, and the other hosts still free at that time. */
  onTaken: (message: string, fresh: SlotsResponse | null, others: HostCard[]) => void;
  /** onStale reports that the chosen time is no longer offered (or never was): the times are reloaded. */
  onStale: (message: string) => void;
}

const emailShape = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** phoneShape is a number written with its country code: "+" or "00", then 7 to 15 digits with spaces, dots, dashes or brackets. */
const phoneShape = /^(\+|00)[\d\s().-]{7,24}$/;

/**
 * Details is the short form under the times: name, email, optional company
 * and topic, and the confirm button. What the visitor types is kept in the
 * service's draft, so that a switch of language keeps it.
 */
export function Details({ service, person = null, zone, zoneCity, slot, onBooked, onTaken, onStale }: DetailsProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const to = useLocalPath();
  const id = useId();
  const form = useRef<HTMLFormElement>(null);
  const alert = useRef<HTMLDivElement>(null);
  const [sending, setSending] = useState(false);
  const [summary, setSummary] = useState("");
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  // When the form was shown: a person takes a few seconds to fill it in.
  const [renderedAt] = useState(() => Date.now());
  // Where the consultation may be a phone or a video call, the visitor chooses; the phone until they do.
  const declared = meetingOf(service);
  const [chosen, setChosen] = useState<"phone" | "video">("phone");
  const byPhone = declared === "phone" || (declared === "either" && chosen === "phone");

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (sending) return;
    const data = new FormData(e.currentTarget);
    const value = (f: Field) => String(data.get(f) ?? "").trim();
    const found: Partial<Record<Field, string>> = {};
    if (!value("name")) found.name = t("validation.name");
    if (!emailShape.test(value("email"))) found.email = t("validation.email");
    if (byPhone && !phoneShape.test(value("phone"))) found.phone = t("validation.phone");
    if (!slot) {
      // The missing time is the first thing to fix: the alert that says
      // so takes the focus, which brings it on screen.
      setErrors(found);
      setSummary(t("validation.start"));
      alert.current?.focus();
      return;
    }
    if (Object.keys(found).length > 0) {
      showErrors(t("validation.invalid"), found);
      return;
    }
    setSending(true);
    setSummary("");
    const result = await postBooking({
      service,
      start: slot.start,
      name: value("name"),
      email: value("email"),
      company: value("company") || undefined,
      topic: value("topic") || undefined,
      phone: byPhone ? value("phone") : undefined,
      meeting: declared === "either" ? chosen : undefined,
      person: person ?? undefined,
      timeZone: zone,
      lang,
      website: String(data.get(honeypotField) ?? ""),
      renderedAt,
    });
    setSending(false);
    switch (result.kind) {
      case "booked":
        onBooked(result.booking, value("email"));
        return;
      case "taken":
        setErrors({});
        onTaken(result.message, result.slots, result.hosts);
        return;
      case "invalid": {
        const byField: Partial<Record<Field, string>> = {};
        for (const f of fields) if (result.fields[f]) byField[f] = result.fields[f];
        const other = Object.entries(result.fields).find(([f]) => !(fields as readonly string[]).includes(f));
        if (other && Object.keys(byField).length === 0) {
          setErrors({});
          setSummary("");
          onStale(other[1]);
          return;
        }
        showErrors(result.message, byField);
        return;
      }
      case "refused":
        setErrors({});
        setSummary(result.message);
        return;
      default:
        setSummary(t("schedule.details.failed"));
    }
  }

  function showErrors(message: string, found: Partial<Record<Field, string>>) {
    setErrors(found);
    setSummary(message);
    const first = fields.find((f) => found[f]);
    if (first) form.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
  }

  const fieldProps = (f: Field) => ({
    id: `${id}-${f}`,
    name: f,
    defaultValue: draftOf(service).fields[f] ?? "",
    onChange: (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
      updateDraft(service, { fields: { ...draftOf(service).fields, [f]: e.target.value } }),
    "aria-invalid": errors[f] ? true : undefined,
    "aria-describedby": [errors[f] ? `${id}-${f}-error` : "", f === "topic" ? `${id}-topic-hint` : ""].join(" ").trim() || undefined,
  });
  const error = (f: Field) =>
    errors[f] ? (
      <p className="field-error" id={`${id}-${f}-error`}>
        {errors[f]}
      </p>
    ) : null;

  return (
    <form ref={form} className="booking-details" noValidate onSubmit={(e) => void submit(e)} aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{t("schedule.details.title")}</h3>
      <SlotSummary service={service} slot={slot} zone={zone} zoneCity={zoneCity} />
      <div className="form-alert" role="alert" ref={alert} tabIndex={-1}>
        {summary}
      </div>
      <div className="field">
        <label htmlFor={`${id}-name`}>{t("schedule.details.name")}</label>
        <input {...fieldProps("name")} type="text" autoComplete="name" required maxLength={100} />
        {error("name")}
      </div>
      <div className="field">
        <label htmlFor={`${id}-email`}>{t("schedule.details.email")}</label>
        <input {...fieldProps("email")} type="email" autoComplete="email" required maxLength={254} dir="ltr" />
        {error("email")}
      </div>
      {declared === "either" ? (
        <fieldset className="meeting-choice">
          <legend>{t("schedule.meeting.legend")}</legend>
          {(["phone", "video"] as const).map((kind) => (
            <label key={kind}>
              <input type="radio" name="meeting" value={kind} checked={chosen === kind} onChange={() => setChosen(kind)} />
              {t(`schedule.meeting.${kind}`)}
            </label>
          ))}
        </fieldset>
      ) : null}
      {byPhone ? (
        <div className="field">
          <label htmlFor={`${id}-phone`}>{t("schedule.details.phone")}</label>
          <input
            {...fieldProps("phone")}
            aria-describedby={[errors.phone ? `${id}-phone-error` : "", `${id}-phone-hint`].join(" ").trim()}
            type="tel"
            autoComplete="tel"
            inputMode="tel"
            required
            maxLength={32}
            dir="ltr"
          />
          <p className="field-hint" id={`${id}-phone-hint`}>
            {t("schedule.details.phoneHint")}
          </p>
          {error("phone")}
        </div>
      ) : null}
      <div className="field">
        <label htmlFor={`${id}-company`}>
          {t("schedule.details.company")} <span className="optional">({t("schedule.details.optional")})</span>
        </label>
        <input {...fieldProps("company")} type="text" autoComplete="organization" maxLength={120} />
        {error("company")}
      </div>
      <div className="field">
        <label htmlFor={`${id}-topic`}>
          {t("schedule.details.topic")} <span className="optional">({t("schedule.details.optional")})</span>
        </label>
        <textarea {...fieldProps("topic")} rows={3} maxLength={1000} />
        <p className="field-hint" id={`${id}-topic-hint`}>
          {t("schedule.details.topicHint")}
        </p>
        {error("topic")}
      </div>
      {/* People never see or reach this field; bots that fill every input do. */}
      <div className="contact-hp" aria-hidden="true">
        <label htmlFor={`${id}-${honeypotField}`}>{t("contact.form.honeypot")}</label>
        <input id={`${id}-${honeypotField}`} name={honeypotField} type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
      </div>
      <p className="field-hint">
        {t("schedule.details.privacy")} <Link to={to("/privacy")}>{t("footer.privacy")}</Link>
      </p>
      <button type="submit" className="button button-primary booking-confirm" aria-disabled={sending || undefined}>
        {sending ? t("schedule.details.sending") : t("schedule.details.confirm")}
      </button>
    </form>
  );
}

/** SlotSummary says which consultation the form books or moves to, and when, or asks for a time while none is chosen. */
export function SlotSummary({ service, slot, zone, zoneCity }: { service: ServiceKey; slot: Slot | null; zone: string; zoneCity: string }) {
  const { t } = useTranslation();
  const lang = useLang();
  return (
    <p className="booking-summary">
      {slot
        ? t("schedule.details.summary", {
            service: t(`schedule.services.${service}.title`),
            date: isolate(formatDay(lang, dateIn(new Date(slot.start), zone))),
            time: isolate(formatTime(lang, slot.start, zone)),
            zone: isolate(zoneCity),
          })
        : t("schedule.details.pick")}
    </p>
  );
}
