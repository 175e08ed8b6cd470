// The consent record as vanilla-cookieconsent stores it (docs/ARCHITECTURE.md,
// Consent), read without the library: a returning visitor whose decision is
// valid gets their analytics choice applied by the entry, and the library
// and its banner are fetched only when there is something to show (no
// valid decision, or the preferences opened from the footer).

/** revision is the consent configuration's revision: a record of another one is asked again. */
export const revision = 0;

/** The consent record's cookie (docs/ARCHITECTURE.md, Consent). */
export const consentCookie = { name: "cc_cookie", days: 182, path: "/", sameSite: "Lax" } as const;

/** Categories and the one service, as stored in the consent cookie. */
export const necessaryCategory = "necessary";
export const analyticsCategory = "analytics";
export const analyticsService = "ga4";

/** StoredChoice is what a valid record says the visitor chose. */
export interface StoredChoice {
  analytics: boolean;
}

/**
 * storedChoice returns the visitor's valid decision, or null when the
 * banner has to ask. A record is valid under the same conditions as the
 * library's (vanilla-cookieconsent 3.1, validConsent): a consent id, both
 * timestamps, a list of categories, and this configuration's revision. The
 * cookie's own expiry (182 days) ends it; an unreadable record is no
 * decision.
 */
export function storedChoice(cookies: string = document.cookie): StoredChoice | null {
  const prefix = `${consentCookie.name}=`;
  const raw = cookies
    .split(";")
    .map((c) => c.trim())
    .find((c) => c.startsWith(prefix));
  if (!raw) return null;
  let record: unknown;
  try {
    record = JSON.parse(decodeURIComponent(raw.slice(prefix.length)));
  } catch {
    return null;
  }
  if (typeof record !== "object" || record === null) return null;
  const r = record as Record<string, unknown>;
  const valid =
    typeof r.consentId === "string" &&
    r.consentId !== "" &&
    typeof r.consentTimestamp === "string" &&
    typeof r.lastConsentTimestamp === "string" &&
    Array.isArray(r.categories) &&
    r.revision === revision;
  if (!valid) return null;
  const services = (r.services ?? {}) as Record<string, unknown>;
  const analyticsServices = services[analyticsCategory];
  return {
    analytics:
      (r.categories as unknown[]).includes(analyticsCategory) &&
      Array.isArray(analyticsServices) &&
      analyticsServices.includes(analyticsService),
  };
}
