import { useEffect, useId, useState, type FormEvent, type ReactNode } from "react";
import { useSearchParams } from "react-router-dom";
import { languages } from "../../lib/languages";
import { api, ApiError } from "../api";
import type { LinkState } from "../boot";
import { useBoot, useErrorText, usePageTitle } from "../hooks";
import { useT, type Key } from "../i18n";
import { Button, EmailInput, FieldError, Notice } from "../ui";
import { cancelledByPerson, createPasskey, getPasskey, passkeysAvailable, type CreationOptionsJSON, type RequestOptionsJSON } from "../webauthn";

/** safeNext keeps a return path inside the workspace. */
function safeNext(next: string | null): string {
  return next?.startsWith("/staff") && !next.startsWith("//") ? next : "/staff";
}

/** Outside is the frame of the pages before the sign-in: the workspace's name, the languages, the page. */
function Outside({ title, children }: { title: Key; children: ReactNode }) {
  const t = useT();
  const { name, lang } = useBoot();
  const [params] = useSearchParams();
  usePageTitle(title);
  const inLanguage = (code: string) => {
    const p = new URLSearchParams(params);
    p.set("lang", code);
    return `?${p.toString()}`;
  };
  return (
    <main id="main" className="ws-outside" tabIndex={-1}>
      <div className="ws-card">
        <p className="ws-brand">{t("app.name", { name })}</p>
        <nav aria-label={t("signIn.language")} className="ws-languages">
          <ul>
            {languages.map((l) => (
              <li key={l.code}>
                <a href={inLanguage(l.code)} lang={l.tag} hrefLang={l.tag} aria-current={l.code === lang ? "true" : undefined}>
                  {l.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <h1>{t(title, { name })}</h1>
        {children}
      </div>
    </main>
  );
}

/** passkeyProblem is what to say when a passkey ceremony failed. */
function usePasskeyProblem(refused: Key): (err: unknown) => string {
  const t = useT();
  const text = useErrorText();
  return (err) => {
    if (cancelledByPerson(err)) return t("signIn.cancelled");
    if (err instanceof ApiError) return err.code === "passkey_refused" ? t(refused) : text(err);
    return t("errors.generic");
  };
}

export function SignIn() {
  const t = useT();
  const { lang } = useBoot();
  const [params] = useSearchParams();
  const next = safeNext(params.get("next"));
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState("");
  const [email, setEmail] = useState("");
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState(false);
  const [linkProblem, setLinkProblem] = useState("");
  const emailId = useId();
  const emailError = useId();
  const passkeyProblem = usePasskeyProblem("signIn.refused");
  const text = useErrorText();

  // A session the first request could not show (its cookie stays home on a
  // visit from another site) is found here, and the workspace opens.
  useEffect(() => {
    api<unknown>("GET", "/staff/api/me", undefined, { signedOut: true }).then(
      () => window.location.replace(next),
      () => undefined,
    );
  }, [next]);

  const signIn = async () => {
    setBusy(true);
    setProblem("");
    try {
      const options = await api<RequestOptionsJSON>("POST", "/staff/api/sign-in/begin", {}, { signedOut: true });
      const credential = await getPasskey(options);
      await api("POST", "/staff/api/sign-in/finish", { credential }, { signedOut: true });
      window.location.assign(next);
    } catch (err) {
      setProblem(passkeyProblem(err));
      setBusy(false);
    }
  };

  const sendLink = async (e: FormEvent) => {
    e.preventDefault();
    setSending(true);
    setLinkProblem("");
    try {
      await api("POST", "/staff/api/sign-in/link", { email, lang }, { signedOut: true });
      setSent(true);
    } catch (err) {
      setLinkProblem(err instanceof ApiError ? (err.fields.email ?? text(err)) : t("errors.generic"));
    } finally {
      setSending(false);
    }
  };

  return (
    <Outside title="signIn.title">
      <p>{t("signIn.intro")}</p>
      {passkeysAvailable() ? (
        <Button onClick={() => void signIn()} disabled={busy} aria-describedby={problem ? "ws-passkey-problem" : undefined}>
          {busy ? t("signIn.working") : t("signIn.passkey")}
        </Button>
      ) : (
        <p>{t("signIn.unsupported")}</p>
      )}
      {problem && (
        <p id="ws-passkey-problem" className="ws-notice ws-error" role="alert">
          {problem}
        </p>
      )}
      <h2 className="ws-or">{t("signIn.linkTitle")}</h2>
      {sent ? (
        <Notice>{t("signIn.sent")}</Notice>
      ) : (
        <form className="ws-form" onSubmit={(e) => void sendLink(e)} noValidate>
          <label htmlFor={emailId}>{t("signIn.email")}</label>
          <EmailInput
            id={emailId}
            name="email"
            autoComplete="username"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            error={linkProblem}
            errorId={emailError}
          />
          {linkProblem && <FieldError id={emailError}>{linkProblem}</FieldError>}
          <Button type="submit" kind="quiet" disabled={sending}>
            {sending ? t("signIn.sending") : t("signIn.send")}
          </Button>
        </form>
      )}
    </Outside>
  );
}

/** linkRefusal reads the state of a link the server refused (codes link_used, link_expired, link_unknown). */
function linkRefusal(err: unknown): Exclude<LinkState, "valid"> | null {
  if (!(err instanceof ApiError)) return null;
  switch (err.code) {
    case "link_used":
      return "used";
    case "link_expired":
      return "expired";
    case "link_unknown":
      return "unknown";
  }
  return null;
}

/**
 * refusals are what each kind of link says once it opens nothing: its
 * title, what is wrong, and the way back. "limited": the page was asked
 * for too often from here (the sign-in limit), whatever the link.
 */
const refusals: Record<"enrol" | "link", { title: Key; why: Record<Exclude<LinkState, "valid">, Key>; back: Key }> = {
  enrol: {
    title: "enrol.invalidTitle",
    why: { used: "enrol.used", expired: "enrol.expired", unknown: "enrol.unknown", limited: "errors.rateLimited" },
    back: "enrol.toSignIn",
  },
  link: {
    title: "link.invalidTitle",
    why: { used: "link.used", expired: "link.expired", unknown: "link.unknown", limited: "errors.rateLimited" },
    back: "link.again",
  },
};

/** RefusedLink is the page of a link that was used, has expired, was never made, or was asked for too often. */
function RefusedLink({ kind, state }: { kind: "enrol" | "link"; state: Exclude<LinkState, "valid"> | null }) {
  const t = useT();
  const r = refusals[kind];
  return (
    <Outside title={r.title}>
      <p className="ws-notice ws-error" role="alert">
        {t(r.why[state ?? "unknown"])}
      </p>
      <p>
        <a href="/staff/sign-in">{t(r.back)}</a>
      </p>
    </Outside>
  );
}

/**
 * useLink is the link a page was opened with (an invitation, a mailed
 * sign-in link): its state as the server found it, and spend, which runs
 * the page's press with the link's token, then opens the workspace. A link
 * refused meanwhile changes the state; any other failure goes to fail.
 */
function useLink(fail: (err: unknown) => void) {
  const { link } = useBoot();
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const [state, setState] = useState<LinkState | null>(link);
  const [busy, setBusy] = useState(false);
  const spend = async (press: (token: string) => Promise<unknown>) => {
    setBusy(true);
    try {
      await press(token);
      window.location.assign("/staff");
    } catch (err) {
      const refused = linkRefusal(err);
      if (refused) {
        setState(refused);
        return;
      }
      fail(err);
      setBusy(false);
    }
  };
  return { state, busy, spend };
}

/** Enrol is the page an invitation opens: it makes the person's first passkey. */
export function Enrol() {
  const t = useT();
  const { lang } = useBoot();
  const [problem, setProblem] = useState("");
  const passkeyProblem = usePasskeyProblem("enrol.refused");
  const { state, busy, spend } = useLink((err) => setProblem(passkeyProblem(err)));

  if (state !== "valid") return <RefusedLink kind="enrol" state={state} />;
  const enrol = () => {
    setProblem("");
    return spend(async (token) => {
      const options = await api<CreationOptionsJSON>("POST", "/staff/api/passkeys/begin", { invitation: token }, { signedOut: true });
      const credential = await createPasskey(options);
      // The language the invitation was read in becomes the new member's.
      await api("POST", "/staff/api/passkeys/finish", { invitation: token, credential, lang }, { signedOut: true });
    });
  };
  return (
    <Outside title="enrol.title">
      <p>{t("enrol.intro")}</p>
      {passkeysAvailable() ? (
        <Button onClick={() => void enrol()} disabled={busy}>
          {busy ? t("enrol.working") : t("enrol.create")}
        </Button>
      ) : (
        <p>{t("enrol.unsupported")}</p>
      )}
      {problem && (
        <p className="ws-notice ws-error" role="alert">
          {problem}
        </p>
      )}
    </Outside>
  );
}

/** LinkSignIn is the page a mailed sign-in link opens: one press spends the link and opens the workspace. */
export function LinkSignIn() {
  const t = useT();
  const [problem, setProblem] = useState<ApiError | null>(null);
  const text = useErrorText();
  const { state, busy, spend } = useLink((err) => setProblem(err instanceof ApiError ? err : new ApiError(0, "network", "")));

  if (state !== "valid") return <RefusedLink kind="link" state={state} />;
  const use = () => {
    setProblem(null);
    return spend((token) => api("POST", "/staff/api/sign-in/link/use", { token }, { signedOut: true }));
  };
  return (
    <Outside title="link.title">
      <p>{t("link.intro")}</p>
      <Button onClick={() => void use()} disabled={busy}>
        {t("link.continue")}
      </Button>
      {problem && (
        <p className="ws-notice ws-error" role="alert">
          {text(problem)}
        </p>
      )}
    </Outside>
  );
}
