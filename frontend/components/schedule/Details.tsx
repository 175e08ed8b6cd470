import { useId, useRef, useState, type ChangeEvent, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { useLang, useLocalPath } from "../../lib/lang";
import { postBooking, type CreatedBooking, type Slot, type SlotsResponse } from "./api";
import { draftOf, updateDraft, type DetailField as Field } from "./draft";
import type { ServiceKey } from "./services";
import { dateIn, formatDay, formatTime } from "./time";

const fields: readonly Field[] = ["name", "email", "company", "topic"];

export interface DetailsProps {
  service: ServiceKey;
  zone: string;
  /** zoneCity names the zone in the summary ("New York"). */
  zoneCity: string;
  slot: Slot | null;
  onBooked: (booking: CreatedBooking, email: string) => void;
  /** onTaken reports a lost race: the message to announce and the fresh slots. */
  onTaken: (message: string, fresh: SlotsResponse | null) => void;
  /** onStale reports that the chosen time is no longer offered (or never was): the times are reloaded. */
  onStale: (message: string) => void;
}

const emailShape = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Details is the short form under the times: name, email, optional company
 * and topic, and the confirm button. What the visitor types is kept in the
 * service's draft, so that a switch of language keeps it.
 */
export function Details({ service, zone, zoneCity, slot, onBooked, onTaken, onStale }: DetailsProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const to = useLocalPath();
  const id = useId();
  const form = useRef<HTMLFormElement>(null);
  const [sending, setSending] = useState(false);
  const [summary, setSummary] = useState("");
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (sending) return;
    const data = new FormData(e.currentTarget);
    const value = (f: Field) => String(data.get(f) ?? "").trim();
    const found: Partial<Record<Field, string>> = {};
    if (!value("name")) found.name = t("validation.name");
    if (!emailShape.test(value("email"))) found.email = t("validation.email");
    if (!slot) {
      setErrors(found);
      setSummary(t("validation.start"));
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
      timeZone: zone,
      lang,
    });
    setSending(false);
    switch (result.kind) {
      case "booked":
        onBooked(result.booking, value("email"));
        return;
      case "taken":
        setErrors({});
        onTaken(result.message, result.slots);
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
      <p className="booking-summary">
        {slot
          ? t("schedule.details.summary", {
              service: t(`schedule.services.${service}.title`),
              date: formatDay(lang, dateIn(new Date(slot.start), zone)),
              time: formatTime(lang, slot.start, zone),
              zone: zoneCity,
            })
          : t("schedule.details.pick")}
      </p>
      <div className="form-alert" role="alert">
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
      <p className="field-hint">
        {t("schedule.details.privacy")} <Link to={to("/privacy")}>{t("footer.privacy")}</Link>
      </p>
      <button type="submit" className="button button-primary booking-confirm" aria-disabled={sending || undefined}>
        {sending ? t("schedule.details.sending") : t("schedule.details.confirm")}
      </button>
    </form>
  );
}
