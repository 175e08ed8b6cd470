import { useCallback, useEffect, useRef, type ComponentProps, type ReactNode } from "react";
import { Link } from "react-router-dom";
import type { ApiError } from "./api";
import { dateTimeParts } from "./format";
import { useBoot, useErrorText } from "./hooks";
import { useT } from "./i18n";

/** Loading is the placeholder of data on its way. */
export function Loading() {
  const t = useT();
  return (
    <p className="ws-loading" role="status">
      {t("app.loading")}
    </p>
  );
}

/** Pending shows data on its way from the API, or the failure that stopped it. */
export function Pending({ loading, error }: { loading: boolean; error: ApiError | null }) {
  if (error) return <Problem error={error} />;
  return loading ? <Loading /> : null;
}

/** BackLink leads back from one item's page to its list. */
export function BackLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <p className="ws-back">
      <Link to={to}>{children}</Link>
    </p>
  );
}

/** Problem shows a refusal or a failure, read out as it appears. */
export function Problem({ error }: { error: ApiError }) {
  const text = useErrorText();
  return (
    <p className="ws-notice ws-error" role="alert">
      {text(error)}
    </p>
  );
}

/** Notice confirms what was done, read out as it appears. */
export function Notice({ children }: { children: ReactNode }) {
  return (
    <p className="ws-notice ws-ok" role="status">
      {children}
    </p>
  );
}

/** Button is the workspace's button; quiet is the less prominent kind, danger the one that destroys. */
export function Button({ kind = "primary", className, ...props }: ComponentProps<"button"> & { kind?: "primary" | "quiet" | "danger" }) {
  const cls = ["ws-button", kind === "primary" ? "" : `ws-${kind}`, className ?? ""].filter(Boolean).join(" ");
  return <button type="button" className={cls} {...props} />;
}

/**
 * More asks for a list's next page: a button the member can press, which also presses itself when
 * it scrolls into view (an IntersectionObserver, 300 px ahead), unless a page is on its way or the
 * last one failed (then only the button asks again). Each page is at most 50 rows (docs/ARCHITECTURE.md, Data).
 */
export function More({ label, busy, failed, onMore }: { label: string; busy: boolean; failed: boolean; onMore: () => void }) {
  const ref = useRef<HTMLButtonElement>(null);
  const more = useRef(onMore);
  more.current = onMore;
  // A page asked for once: the observer and a click in the same moment must not ask twice.
  const asked = useRef(false);
  const ask = useCallback(() => {
    if (asked.current) return;
    asked.current = true;
    more.current();
  }, []);
  useEffect(() => {
    if (!busy) asked.current = false;
    const el = ref.current;
    if (!el || busy || failed || typeof IntersectionObserver === "undefined") return;
    const seen = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          seen.disconnect();
          ask();
        }
      },
      { rootMargin: "300px" },
    );
    seen.observe(el);
    return () => seen.disconnect();
  }, [busy, failed, ask]);
  return (
    <p className="ws-more">
      <Button ref={ref} kind="quiet" aria-busy={busy || undefined} disabled={busy} onClick={ask}>
        {label}
      </Button>
    </p>
  );
}

/** When is a moment (RFC 3339) with its date and time, in the member's language and the consultancy's zone. */
export function When({ at }: { at: string }) {
  const { lang, zone } = useBoot();
  // A line breaks between the date and the time, never inside either (staff.css): "ص" never stands alone.
  const [date, separator, clock] = dateTimeParts(lang, at, zone);
  return (
    <time dateTime={at} className="ws-when">
      <span>{date}</span>
      {separator}
      {clock && <span>{clock}</span>}
    </time>
  );
}

/** TimeFact is a moment in a list of facts (dl), named label; nothing when there is no moment. */
export function TimeFact({ label, at }: { label: string; at: string | null | undefined }) {
  if (!at) return null;
  return (
    <>
      <dt>{label}</dt>
      <dd>
        <When at={at} />
      </dd>
    </>
  );
}

/** Ltr keeps an address, a reference or a code left to right inside right-to-left text. */
export function Ltr({ children }: { children: ReactNode }) {
  return (
    <bdi dir="ltr" className="ws-ltr">
      {children}
    </bdi>
  );
}

/** List lists items (each by item), or says empty when there are none. */
export function List<I>({ items, empty, item }: { items: readonly I[]; empty: string; item: (it: I, i: number) => ReactNode }) {
  if (items.length === 0) return <p className="ws-empty">{empty}</p>;
  return <ul className="ws-list">{items.map(item)}</ul>;
}

/**
 * Tabs are the views of a page (folders, the agenda's views), named label:
 * a link to each tab (href), what children shows for it, the current one
 * marked.
 */
export function Tabs<Tab extends string>({
  label,
  tabs,
  current,
  href,
  children,
}: {
  label: string;
  tabs: readonly Tab[];
  current: Tab;
  href: (tab: Tab) => string;
  children: (tab: Tab) => ReactNode;
}) {
  return (
    <nav className="ws-tabs" aria-label={label}>
      <ul>
        {tabs.map((tab) => (
          <li key={tab}>
            <Link to={href(tab)} aria-current={tab === current ? "page" : undefined}>
              {children(tab)}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/**
 * EmailInput is an input for an email address, written left to right;
 * error, when there is one, is its message, shown by a FieldError of
 * errorId.
 */
export function EmailInput({ error, errorId, ...props }: ComponentProps<"input"> & { error: string | undefined; errorId: string }) {
  return <input type="email" dir="ltr" aria-invalid={error ? true : undefined} aria-describedby={error ? errorId : undefined} {...props} />;
}

/** FieldError is the message of a field that was refused, which the field names in aria-describedby. */
export function FieldError({ id, children }: { id: string; children: ReactNode }) {
  return (
    <p id={id} className="ws-field-error" role="alert">
      {children}
    </p>
  );
}
