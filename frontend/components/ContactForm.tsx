import { useEffect, useId, useRef, useState, type ComponentProps, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import {
  contactFields,
  honeypotField,
  renderedAtField,
  validateContact,
  type ContactField,
  type ContactFormState,
  type ContactValues,
  type FieldErrors,
} from "../lib/contact";
import { useLang } from "../lib/lang";

type Status = "idle" | "sending" | "sent" | "invalid" | "error";

/** serviceLabels names each service-interest choice; "" is no choice. */
const serviceLabels = [
  ["custom-software", "services.customSoftware.title"],
  ["platform-engineering", "services.platformEngineering.title"],
  ["strategic-consulting", "services.strategicConsulting.title"],
  ["not-sure", "contact.form.notSure"],
] as const;

/** statusId is where a post without JavaScript lands (the form's action ends with it). */
const statusId = "contact-status";

type ContactFormProps = Omit<ComponentProps<"form">, "action" | "method" | "onSubmit" | "children"> & {
  /** initial is the outcome of a post without JavaScript, from the page's payload. */
  initial?: ContactFormState;
};

/**
 * ContactForm is the contact form. With JavaScript it checks the fields and
 * posts JSON, showing "Sending..." then the outcome; without, it is a plain
 * HTML form post that the server answers with this page and the outcome.
 */
export function ContactForm({ initial, ...props }: ContactFormProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const id = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const sending = useRef(false);
  const [status, setStatus] = useState<Status>(initial?.status ?? "idle");
  // Error messages, by field: locale keys translated here, or the server's own (translated) messages.
  const [errors, setErrors] = useState<FieldErrors>(() => translateErrors(initial?.errors ?? {}, t));
  const [reason, setReason] = useState(() => (initial?.reason ? t(initial.reason) : ""));
  // Set after hydration, so that the server's HTML and the first client render agree.
  const [renderedAt, setRenderedAt] = useState("");

  useEffect(() => {
    setRenderedAt(String(Date.now()));
    // The script checks the fields itself, in the page's language.
    if (formRef.current) formRef.current.noValidate = true;
  }, []);

  const fieldId = (name: string) => `${id}-${name}`;
  const errorId = (name: ContactField) => `${id}-${name}-error`;

  function focusFirst(errs: FieldErrors) {
    const first = contactFields.find((f) => errs[f]);
    if (first) document.getElementById(fieldId(first))?.focus();
  }

  // A field in error is checked again as the visitor types, so its error goes once it is fixed. (Not on
  // blur: an error vanishing then moves the button from under a click on it.)
  function recheck(name: ContactField) {
    if (!errors[name] || !formRef.current) return;
    const key = validateContact(readValues(new FormData(formRef.current)))[name];
    setErrors((prev) => ({ ...prev, [name]: key ? t(key) : undefined }));
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    if (sending.current) return;
    const data = new FormData(form);
    const values = readValues(data);
    const invalid = translateErrors(validateContact(values), t);
    setErrors(invalid);
    setReason("");
    if (Object.keys(invalid).length > 0) {
      setStatus("invalid");
      focusFirst(invalid);
      return;
    }
    sending.current = true;
    setStatus("sending");
    try {
      const res = await fetch("/api/contact", {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({
          ...values,
          lang,
          [honeypotField]: data.get(honeypotField) ?? "",
          [renderedAtField]: Number(renderedAt) || undefined,
        }),
      });
      if (res.ok) {
        form.reset();
        setErrors({});
        setRenderedAt(String(Date.now()));
        setStatus("sent");
        return;
      }
      const body = (await res.json().catch(() => null)) as ApiError | null;
      const fields = pickFieldErrors(body?.error?.fields);
      if (res.status === 422 && Object.keys(fields).length > 0) {
        setErrors(fields);
        setStatus("invalid");
        focusFirst(fields);
        return;
      }
      // A limit or an outage says when to try again: the visitor can act on it.
      if ((res.status === 429 || res.status === 503) && body?.error?.message) setReason(body.error.message);
      setStatus("error");
    } catch {
      setStatus("error");
    } finally {
      sending.current = false;
    }
  }

  const isSending = status === "sending";
  const message =
    status === "sent"
      ? t("contact.sent")
      : status === "invalid"
        ? t("validation.invalid")
        : status === "error"
          ? [t("contact.error"), reason].filter(Boolean).join(" ")
          : "";
  const values = initial?.values;

  const fieldProps = (name: ContactField) => ({
    id: fieldId(name),
    name,
    defaultValue: values?.[name] ?? "",
    "aria-invalid": errors[name] ? true : undefined,
    "aria-describedby": errors[name] ? errorId(name) : undefined,
    onChange: () => recheck(name),
  });
  const fieldError = (name: ContactField) =>
    errors[name] ? (
      <p id={errorId(name)} className="field-error">
        {errors[name]}
      </p>
    ) : null;

  return (
    <form
      {...props}
      ref={formRef}
      className={["contact-form", props.className].filter(Boolean).join(" ")}
      method="post"
      action={`/api/contact#${statusId}`}
      onSubmit={onSubmit}
    >
      <input type="hidden" name="lang" value={lang} />
      <input type="hidden" name={renderedAtField} value={renderedAt} />
      <div className="field">
        <label htmlFor={fieldId("name")}>{t("contact.form.name")}</label>
        <input {...fieldProps("name")} type="text" autoComplete="name" dir="auto" required />
        {fieldError("name")}
      </div>
      <div className="field">
        <label htmlFor={fieldId("email")}>{t("contact.form.email")}</label>
        <input {...fieldProps("email")} type="email" autoComplete="email" inputMode="email" dir="ltr" required />
        {fieldError("email")}
      </div>
      <div className="field">
        <label htmlFor={fieldId("service")}>{t("contact.form.service")}</label>
        <select {...fieldProps("service")}>
          <option value="">{t("contact.form.serviceNone")}</option>
          {serviceLabels.map(([value, key]) => (
            <option key={value} value={value}>
              {t(key)}
            </option>
          ))}
        </select>
        {fieldError("service")}
      </div>
      <div className="field">
        <label htmlFor={fieldId("message")}>{t("contact.form.message")}</label>
        <textarea {...fieldProps("message")} rows={6} dir="auto" required />
        {fieldError("message")}
      </div>
      {/* People never see or reach this field; bots that fill every input do. */}
      <div className="contact-hp" aria-hidden="true">
        <label htmlFor={fieldId(honeypotField)}>{t("contact.form.honeypot")}</label>
        <input id={fieldId(honeypotField)} name={honeypotField} type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
      </div>
      <div className="form-actions">
        <button
          type="submit"
          className="button button-primary"
          // aria-disabled rather than disabled: the button keeps keyboard focus while sending.
          aria-disabled={isSending ? true : undefined}
        >
          {isSending ? t("contact.form.sending") : t("contact.form.submit")}
        </button>
        <p id={statusId} className={`form-status form-status-${status}`} role="status">
          {message}
        </p>
      </div>
    </form>
  );
}

interface ApiError {
  error?: { code?: string; message?: string; fields?: Record<string, string> };
}

function readValues(data: FormData): ContactValues {
  const get = (name: ContactField) => {
    const v = data.get(name);
    return typeof v === "string" ? v : "";
  };
  return { name: get("name"), email: get("email"), message: get("message"), service: get("service") };
}

function translateErrors(keys: FieldErrors, t: (key: string) => string): FieldErrors {
  const out: FieldErrors = {};
  for (const f of contactFields) {
    const key = keys[f];
    if (key) out[f] = t(key);
  }
  return out;
}

/** pickFieldErrors keeps the server's messages for the fields this form shows. */
function pickFieldErrors(fields: Record<string, string> | undefined): FieldErrors {
  const out: FieldErrors = {};
  for (const f of contactFields) {
    const message = fields?.[f];
    if (message) out[f] = message;
  }
  return out;
}
