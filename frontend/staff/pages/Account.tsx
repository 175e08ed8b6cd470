import { useId, useState, type FormEvent } from "react";
import { languages, type Lang } from "../../lib/languages";
import { api, ApiError, signOut } from "../api";
import { dateTime } from "../format";
import { useApi, useBoot, usePageTitle } from "../hooks";
import { useT } from "../i18n";
import type { Account as AccountData } from "../types";
import { Button, Loading, Ltr, Notice, Problem } from "../ui";
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
  const removePasskey = async (id: number) => {
    setBusy(true);
    setNotice("");
    try {
      set(await api<AccountData>("DELETE", `/staff/api/passkeys/${id}`));
      setNotice(t("account.passkeyRemoved"));
    } catch (err) {
      setProblem(err instanceof ApiError ? err : null);
    } finally {
      setBusy(false);
    }
  };
  const signOutEverywhere = () => {
    setBusy(true);
    void signOut("/staff/api/sign-out-everywhere");
  };
  return (
    <>
      <h1>{t("account.title")}</h1>
      {loading && <Loading />}
      {error && <Problem error={error} />}
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
            {data.passkeys.length === 0 ? (
              <p className="ws-empty">{t("account.noPasskeys")}</p>
            ) : (
              <ul className="ws-list">
                {data.passkeys.map((p, i) => (
                  <li key={p.id} className="ws-item ws-passkey">
                    <div>
                      <h3 className="ws-item-title">{t("account.passkeyName", { n: i + 1 })}</h3>
                      <p className="ws-meta">
                        {t("account.passkeyCreated", { date: dateTime(lang, p.created, zone) })}
                        {" · "}
                        {p.lastUsed ? t("account.passkeyUsed", { date: dateTime(lang, p.lastUsed, zone) }) : t("account.passkeyNeverUsed")}
                      </p>
                    </div>
                    <Button kind="quiet" disabled={busy} onClick={() => void removePasskey(p.id)} aria-label={t("account.removePasskeyLabel", { n: i + 1 })}>
                      {t("account.removePasskey")}
                    </Button>
                  </li>
                ))}
              </ul>
            )}
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
          <section aria-labelledby="ws-sessions-title">
            <h2 id="ws-sessions-title">{t("account.sessionsTitle")}</h2>
            <p>{t("account.sessionsIntro")}</p>
            <Button kind="danger" disabled={busy} onClick={signOutEverywhere}>
              {t("account.signOutEverywhere")}
            </Button>
          </section>
        </>
      )}
    </>
  );
}
