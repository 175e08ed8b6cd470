import { useId, useState, type FormEvent } from "react";
import { languages, type Lang } from "../../lib/languages";
import { api, ApiError, signOut } from "../api";
import { dateTime } from "../format";
import { useAction, useApi, useBoot, usePageTitle } from "../hooks";
import { CalendarFeeds } from "../hosts";
import { useT, type Key, type T } from "../i18n";
import type { Account as AccountData, Passkey } from "../types";
import { Button, FieldError, List, Ltr, Notice, Pending, Problem } from "../ui";
import { cancelledByPerson, createPasskey, passkeysAvailable, type CreationOptionsJSON } from "../webauthn";

/** Account is the member's own page: the workspace's language, their passkeys, and signing out everywhere. */
export function Account() {
  const t = useT();
  const { lang, zone } = useBoot();
  usePageTitle("account.title");
  const { data, error, loading, set } = useApi<AccountData>("/staff/api/me");
  const [choice, setChoice] = useState<Lang>(lang);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState("");
  const [problem, setProblem] = useState<ApiError | null>(null);
  const [passkeyProblem, setPasskeyProblem] = useState("");
  const [confirmEverywhere, setConfirmEverywhere] = useState(false);
  const langId = useId();

  const saveLanguage = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      await api("POST", "/staff/api/me/language", { lang: choice });
      // The page comes again from the server, in the language and direction chosen.
      window.location.reload();
    } catch (err) {
      setProblem(err instanceof ApiError ? err : null);
      setBusy(false);
    }
  };
  const addPasskey = async () => {
    setBusy(true);
    setPasskeyProblem("");
    setNotice("");
    try {
      const options = await api<CreationOptionsJSON>("POST", "/staff/api/passkeys/begin", {});
      const credential = await createPasskey(options);
      set(await api<AccountData>("POST", "/staff/api/passkeys/finish", { credential }));
      setNotice(t("account.passkeyAdded"));
    } catch (err) {
      if (err instanceof DOMException && err.name === "InvalidStateError") setPasskeyProblem(t("account.passkeyExists"));
      else if (cancelledByPerson(err)) setPasskeyProblem(t("signIn.cancelled"));
      else setPasskeyProblem(err instanceof ApiError && err.message ? err.message : t("errors.generic"));
    } finally {
      setBusy(false);
    }
  };
  // remove deletes one passkey or session of path (the API answers with the account), and says done.
  const remove = async (path: string, done: Key) => {
    setBusy(true);
    setNotice("");
    try {
      set(await api<AccountData>("DELETE", path));
      setNotice(t(done));
    } catch (err) {
      setProblem(err instanceof ApiError ? err : null);
    } finally {
      setBusy(false);
    }
  };
  const removePasskey = (id: number) => remove(`/staff/api/passkeys/${id}`, "account.passkeyRemoved");
  const endSession = (id: number) => remove(`/staff/api/sessions/${id}`, "account.sessionEnded");
  const signOutEverywhere = () => {
    setBusy(true);
    void signOut("/staff/api/sign-out-everywhere");
  };
  return (
    <>
      <h1>{t("account.title")}</h1>
      <Pending loading={loading} error={error} />
      {notice && <Notice>{notice}</Notice>}
      {problem && <Problem error={problem} />}
      {data && (
        <>
          <p>
            {t("account.signedInAs")} <Ltr>{data.email}</Ltr>
          </p>
          <section aria-labelledby="ws-language-title">
            <h2 id="ws-language-title">{t("account.languageTitle")}</h2>
            <form className="ws-form" onSubmit={(e) => void saveLanguage(e)}>
              <label htmlFor={langId}>{t("account.language")}</label>
              <div className="ws-row">
                <select id={langId} name="lang" value={choice} onChange={(e) => setChoice(e.target.value as Lang)}>
                  {languages.map((l) => (
                    <option key={l.code} value={l.code} lang={l.tag}>
                      {l.label}
                    </option>
                  ))}
                </select>
                <Button type="submit" disabled={busy || choice === lang}>
                  {t("account.saveLanguage")}
                </Button>
              </div>
            </form>
          </section>
          <section aria-labelledby="ws-passkeys-title">
            <h2 id="ws-passkeys-title">{t("account.passkeysTitle")}</h2>
            <p>{t("account.passkeysIntro")}</p>
            <List
              items={data.passkeys}
              empty={t("account.noPasskeys")}
              item={(p, i) => <PasskeyItem key={p.id} p={p} n={i + 1} busy={busy} onChange={set} onRemove={() => void removePasskey(p.id)} />}
            />
            {passkeysAvailable() && (
              <Button disabled={busy} onClick={() => void addPasskey()}>
                {t("account.addPasskey")}
              </Button>
            )}
            {passkeyProblem && (
              <p className="ws-notice ws-error" role="alert">
                {passkeyProblem}
              </p>
            )}
          </section>
          <CalendarFeeds />
          <section aria-labelledby="ws-sessions-title">
            <h2 id="ws-sessions-title">{t("account.sessionsTitle")}</h2>
            <p>{t("account.sessionsIntro")}</p>
            <ul className="ws-list">
              {data.sessions.map((x) => (
                <li key={x.id} className="ws-item ws-passkey">
                  <div>
                    <h3 className="ws-item-title">
                      {deviceName(t, x.browser, x.platform) || t("account.unknownDevice")}
                      {x.current && <span className="ws-tag">{t("account.thisSession")}</span>}
                    </h3>
                    <p className="ws-meta">
                      {t("account.sessionStarted", { date: dateTime(lang, x.created, zone) })}
                      {" · "}
                      {t("account.sessionSeen", { date: dateTime(lang, x.seen, zone) })}
                    </p>
                  </div>
                  {!x.current && (
                    <Button kind="quiet" disabled={busy} onClick={() => void endSession(x.id)}>
                      {t("account.endSession")}
                    </Button>
                  )}
                </li>
              ))}
            </ul>
            {confirmEverywhere ? (
              <div className="ws-danger-zone">
                <p className="ws-notice ws-warn" role="alert">
                  {t("account.signOutEverywhereConfirm", { count: data.sessions.length })}
                </p>
                <div className="ws-actions">
                  <Button kind="danger" disabled={busy} onClick={signOutEverywhere}>
                    {t("account.signOutEverywhereYes")}
                  </Button>
                  <Button kind="quiet" disabled={busy} onClick={() => setConfirmEverywhere(false)}>
                    {t("account.keepSessions")}
                  </Button>
                </div>
              </div>
            ) : (
              <Button kind="danger" disabled={busy} onClick={() => setConfirmEverywhere(true)}>
                {t("account.signOutEverywhere")}
              </Button>
            )}
          </section>
        </>
      )}
    </>
  );
}

/** deviceName names a browser on a system, "" when neither is known. */
function deviceName(t: T, browser: string, platform: string): string {
  if (browser && platform) return t("account.device", { browser, platform });
  return browser || platform;
}

/** PasskeyItem is one passkey: its name (which its member may change), its dates, and its removal. */
function PasskeyItem({ p, n, busy, onChange, onRemove }: { p: Passkey; n: number; busy: boolean; onChange: (a: AccountData) => void; onRemove: () => void }) {
  const t = useT();
  const { lang, zone } = useBoot();
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(p.name);
  const { problem, run } = useAction();
  const nameId = useId();
  const errorId = useId();
  const shown = p.name || deviceName(t, p.browser, p.platform) || t("account.passkeyName", { n });
  const save = (e: FormEvent) => {
    e.preventDefault();
    return run(async () => {
      onChange(await api<AccountData>("POST", `/staff/api/passkeys/${p.id}/name`, { name }));
      setEditing(false);
    });
  };
  return (
    <li className="ws-item ws-passkey">
      <div>
        <h3 className="ws-item-title" dir="auto">
          {shown}
        </h3>
        <p className="ws-meta">
          {t("account.passkeyCreated", { date: dateTime(lang, p.created, zone) })}
          {" · "}
          {p.lastUsed ? t("account.passkeyUsed", { date: dateTime(lang, p.lastUsed, zone) }) : t("account.passkeyNeverUsed")}
        </p>
        {editing && (
          <form className="ws-form" onSubmit={(e) => void save(e)}>
            <label htmlFor={nameId}>{t("account.passkeyNameLabel")}</label>
            <div className="ws-row">
              <input
                id={nameId}
                name="name"
                maxLength={60}
                value={name}
                dir="auto"
                onChange={(e) => setName(e.target.value)}
                aria-invalid={problem ? true : undefined}
                aria-describedby={problem ? errorId : undefined}
              />
              <Button type="submit">{t("account.saveName")}</Button>
            </div>
            {problem && <FieldError id={errorId}>{problem.fields.name ?? problem.message}</FieldError>}
          </form>
        )}
      </div>
      <div className="ws-actions">
        {!editing && (
          <Button kind="quiet" disabled={busy} onClick={() => setEditing(true)} aria-label={t("account.renamePasskeyLabel", { name: shown })}>
            {t("account.renamePasskey")}
          </Button>
        )}
        <Button kind="quiet" disabled={busy} onClick={onRemove} aria-label={t("account.removePasskeyLabel", { name: shown })}>
          {t("account.removePasskey")}
        </Button>
      </div>
    </li>
  );
}
