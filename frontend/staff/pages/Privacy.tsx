import { useId, useState, type FormEvent } from "react";
import { api } from "../api";
import { useAction, usePageTitle } from "../hooks";
import { useT } from "../i18n";
import { serviceKey } from "../labels";
import type { Person } from "../types";
import { withWholeValues } from "../../lib/values";
import { Button, EmailInput, FieldError, Ltr, Notice, Problem, When } from "../ui";

interface Erased {
  messages: number;
  bookings: number;
  mail: number;
}

/** Privacy answers a person's request about their data: what is stored, a copy of it, its erasure. */
export function Privacy() {
  const t = useT();
  usePageTitle("privacy.title");
  const [email, setEmail] = useState("");
  const [person, setPerson] = useState<Person | null>(null);
  const { busy, problem, run } = useAction();
  const [confirming, setConfirming] = useState(false);
  const [confirmation, setConfirmation] = useState("");
  const [erased, setErased] = useState<Erased | null>(null);
  // The spellings the member confirmed as the person's; the one typed in the search to begin with.
  const [chosen, setChosen] = useState<string[]>([]);
  const emailId = useId();
  const addressesError = useId();
  const emailError = useId();
  const confirmId = useId();
  const confirmError = useId();

  const find = (e: FormEvent) => {
    e.preventDefault();
    setPerson(null);
    setErased(null);
    setConfirming(false);
    return run(async () => {
      const res = await api<{ person: Person }>("POST", "/staff/api/privacy/search", { email });
      const typed = email.trim().normalize("NFC");
      const spellings = res.person.addresses.map((a) => a.email);
      setChosen(spellings.length === 1 ? spellings : spellings.filter((a) => a === typed));
      setPerson(res.person);
    });
  };
  const erase = async (e: FormEvent) => {
    e.preventDefault();
    if (!person) return;
    await run(async () => {
      const res = await api<{ erased: Erased }>("POST", "/staff/api/privacy/erase", {
        email: person.email,
        confirm: confirmation,
        addresses: chosen,
      });
      setErased(res.erased);
      setPerson(null);
      setConfirming(false);
      setConfirmation("");
    });
  };
  const empty = person && person.messages.length + person.bookings.length + person.mail.length === 0;
  const several = person !== null && person.addresses.length > 1;
  const toggle = (address: string, on: boolean) =>
    setChosen((c) => (on ? [...c.filter((a) => a !== address), address] : c.filter((a) => a !== address)));
  return (
    <>
      <h1>{t("privacy.title")}</h1>
      <p>{t("privacy.intro")}</p>
      <form className="ws-form" onSubmit={(e) => void find(e)} noValidate>
        <label htmlFor={emailId}>{t("privacy.email")}</label>
        <div className="ws-row">
          <EmailInput
            id={emailId}
            name="email"
            autoComplete="off"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            error={problem?.fields.email}
            errorId={emailError}
          />
          <Button type="submit" disabled={busy}>
            {t("privacy.find")}
          </Button>
        </div>
        {problem?.fields.email && <FieldError id={emailError}>{problem.fields.email}</FieldError>}
      </form>
      {problem && !problem.fields.email && !problem.fields.confirm && !problem.fields.addresses && <Problem error={problem} />}
      {erased && (
        <Notice>{t("privacy.erased", {
            messages: t("privacy.erasedMessages", { count: erased.messages }),
            bookings: t("privacy.erasedBookings", { count: erased.bookings }),
            mail: t("privacy.erasedMail", { count: erased.mail }),
          })}</Notice>
      )}
      {empty && <p className="ws-empty">{withWholeValues((v) => t("privacy.nothing", v), { email: person.email })}</p>}
      {person && !empty && (
        <section className="ws-person" aria-labelledby="ws-person-title">
          <h2 id="ws-person-title">
            {t("privacy.found")} <Ltr>{person.email}</Ltr>
          </h2>
          {several && (
            <fieldset
              className="ws-spellings"
              aria-invalid={problem?.fields.addresses ? true : undefined}
              aria-describedby={problem?.fields.addresses ? addressesError : undefined}
            >
              <legend>{t("privacy.spellingsLegend")}</legend>
              <p>{t("privacy.spellings")}</p>
              {person.addresses.map((a) => (
                <label key={a.email}>
                  <input type="checkbox" checked={chosen.includes(a.email)} onChange={(e) => toggle(a.email, e.target.checked)} />{" "}
                  <Ltr>{a.email}</Ltr> ({t("privacy.spellingCounts", { messages: a.messages, bookings: a.bookings, mail: a.mail })})
                </label>
              ))}
              {problem?.fields.addresses && <FieldError id={addressesError}>{problem.fields.addresses}</FieldError>}
            </fieldset>
          )}
          <h3>{t("privacy.messages", { n: person.messages.length })}</h3>
          {person.messages.length > 0 && (
            <ul className="ws-list ws-compact-list">
              {person.messages.map((m) => (
                <li key={m.reference}>
                  <When at={m.received} /> · {m.name}
                  {several && (
                    <>
                      {" "}
                      · <Ltr>{m.email}</Ltr>
                    </>
                  )}
                  {m.flaggedAsSpam && <> · {t("messages.folders.spam")}</>}
                </li>
              ))}
            </ul>
          )}
          <h3>{t("privacy.bookings", { n: person.bookings.length })}</h3>
          {person.bookings.length > 0 && (
            <ul className="ws-list ws-compact-list">
              {person.bookings.map((b) => {
                const service = serviceKey(b.service);
                return (
                  <li key={b.number}>
                    <When at={b.start} /> · {service ? t(service) : b.service}
                    {several && (
                      <>
                        {" "}
                        · <Ltr>{b.email}</Ltr>
                      </>
                    )}
                    {b.cancelled && <> · {t("bookings.status.cancelled")}</>}
                  </li>
                );
              })}
            </ul>
          )}
          <h3>{t("privacy.mail", { n: person.mail.length })}</h3>
          <div className="ws-actions">
            <form method="post" action="/staff/export/person.json">
              <input type="hidden" name="email" value={person.email} />
              {chosen.map((a) => (
                <input key={a} type="hidden" name="address" value={a} />
              ))}
              <Button type="submit" kind="quiet" disabled={chosen.length === 0}>
                {t("privacy.download")}
              </Button>
            </form>
            {!confirming && (
              <Button kind="danger" disabled={chosen.length === 0} onClick={() => setConfirming(true)}>
                {t("privacy.erase")}
              </Button>
            )}
          </div>
          {confirming && (
            <form className="ws-form ws-danger-zone" onSubmit={(e) => void erase(e)} noValidate>
              <h3>{t("privacy.confirmTitle")}</h3>
              <p>{t("privacy.confirmText")}</p>
              <label htmlFor={confirmId}>{t("privacy.confirmLabel")}</label>
              <EmailInput
                id={confirmId}
                name="confirm"
                autoComplete="off"
                value={confirmation}
                onChange={(e) => setConfirmation(e.target.value)}
                error={problem?.fields.confirm}
                errorId={confirmError}
              />
              {problem?.fields.confirm && <FieldError id={confirmError}>{problem.fields.confirm}</FieldError>}
              <div className="ws-actions">
                <Button type="submit" kind="danger" disabled={busy}>
                  {t("privacy.eraseYes")}
                </Button>
                <Button kind="quiet" onClick={() => setConfirming(false)}>
                  {t("privacy.keep")}
                </Button>
              </div>
            </form>
          )}
        </section>
      )}
    </>
  );
}
