// The vanilla-cookieconsent configuration: docs/ARCHITECTURE.md, Consent.
// Only the consent chunk imports this file; what it needs from the app
// (strings, languages, what to do with the analytics choice) arrives in a ConsentContext, so the
// chunk shares no module with the entry and changes nothing in its layout.

import type * as CookieConsent from "vanilla-cookieconsent";
import type { Lang, Language } from "../lib/languages";
import type { ClientConfig } from "../lib/payload";
import { analyticsCategory, analyticsService, consentCookie, necessaryCategory, revision } from "./record";

/** Translate returns a string of the locale files (content/locales) in one language. */
export type Translate = (key: string, options?: { skipInterpolation?: boolean }) => string;

/** ConsentContext is what the entry hands to the consent chunk. */
export interface ConsentContext {
  config: ClientConfig;
  /** lang is the language of the page when consent starts. */
  lang: Lang;
  languages: Language[];
  /** storageKey is the local storage key of the language preference (listed as necessary). */
  storageKey: string;
  strings(lang: Lang): Promise<Translate>;
  /** onAnalytics hears the analytics choice whenever it is known or changes. */
  onAnalytics(granted: boolean): void;
}

/** analyticsCookieNames: every cookie whose name begins with _ga, and _gid. */
const analyticsCookieNames: (string | RegExp)[] = [/^_ga/, "_gid"];

/**
 * analyticsCookies lists the cookies to clear when analytics is refused.
 * Without a domain the library clears the host-only cookie and the one for
 * ".<host>"; Google Analytics writes its cookies on the widest domain it
 * may (example.com when the site is www.example.com), so every parent
 * domain is listed too. A parent the browser would never accept (a public
 * suffix such as co.uk) costs one ignored cookie write.
 */
export function analyticsCookies(hostname: string): CookieConsent.CookieItem[] {
  const items: CookieConsent.CookieItem[] = analyticsCookieNames.map((name) => ({ name }));
  for (const domain of parentDomains(hostname)) {
    for (const name of analyticsCookieNames) items.push({ name, domain });
  }
  return items;
}

function parentDomains(hostname: string): string[] {
  // IP addresses and single-label hosts (localhost) have no parent domain.
  if (!hostname.includes(".") || hostname.includes(":") || /^[\d.]+$/.test(hostname)) return [];
  const labels = hostname.split(".");
  const out: string[] = [];
  for (let i = 1; i < labels.length - 1; i++) out.push(labels.slice(i).join("."));
  return out;
}

/**
 * consentConfig returns the whole configuration. Consent is shown by the
 * caller (autoShow is off: the banner waits until the page is built), and
 * onAnalytics hears the analytics decision on every page load with a valid
 * decision and on every change.
 */
export function consentConfig(
  ctx: ConsentContext,
  hostname: string,
  onAnalytics: () => void,
): CookieConsent.CookieConsentConfig {
  // Without a measurement ID there is no analytics: the banner and the dialog offer only the necessary category.
  const analytics = ctx.config.gaMeasurementId !== "";
  const translations: CookieConsent.CookieConsentConfig["language"]["translations"] = {};
  for (const l of ctx.languages) {
    // Built from the locale files when the language is first shown: no translation URL is fetched.
    translations[l.code] = () => ctx.strings(l.code).then((t) => translation(t, l, ctx.storageKey, analytics));
  }
  const categories: CookieConsent.CookieConsentConfig["categories"] = {
    [necessaryCategory]: { enabled: true, readOnly: true },
  };
  if (analytics) {
    categories[analyticsCategory] = {
      enabled: false,
      readOnly: false,
      autoClear: { cookies: analyticsCookies(hostname) },
      // A product name, the same in every language.
      services: { [analyticsService]: { label: "Google Analytics" } },
    };
  }
  return {
    mode: "opt-in",
    // Set explicitly: only then does vanilla-cookieconsent compare the stored revision and re-prompt when it differs.
    revision,
    autoShow: false,
    hideFromBots: ctx.config.consentHideFromBots,
    // gtag.js is loaded by code, never by a <script data-category> in the page.
    manageScriptTags: false,
    autoClearCookies: true,
    cookie: {
      name: consentCookie.name,
      expiresAfterDays: consentCookie.days,
      path: consentCookie.path,
      sameSite: consentCookie.sameSite,
      // The library adds Secure only when location.protocol is https:.
      secure: true,
    },
    guiOptions: {
      consentModal: { layout: "box inline", position: "bottom center" },
      preferencesModal: { layout: "box", position: "right" },
    },
    categories,
    language: {
      default: ctx.lang,
      rtl: ctx.languages.filter((l) => l.dir === "rtl").map((l) => l.code),
      translations,
    },
    onConsent: onAnalytics,
    onChange: onAnalytics,
  };
}

/** escapeText makes a string safe as HTML text (the library sets most strings as innerHTML). */
function escapeText(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function escapeAttribute(s: string): string {
  return escapeText(s).replace(/"/g, "&quot;");
}

/**
 * translation builds one language's texts from its locale strings; without
 * analytics, the texts and the dialog speak of the necessary cookies only.
 */
export function translation(
  t: Translate,
  lang: Language,
  storageKey: string,
  analytics: boolean,
): CookieConsent.Translation {
  const text = (key: string) => escapeText(t(key));
  const link = (path: string, label: string) =>
    `<a href="${escapeAttribute(lang.prefix + path)}">${escapeText(label)}</a>`;
  // A sentence with {{placeholders}} for links: the text is escaped, the links are not.
  const withLinks = (key: string, links: Record<string, string>) =>
    escapeText(t(key, { skipInterpolation: true })).replace(/\{\{(\w+)\}\}/g, (m, name: string) => links[name] ?? m);
  const headers = {
    name: text("consent.table.name"),
    purpose: text("consent.table.purpose"),
    lifetime: text("consent.table.lifetime"),
  };
  const row = (name: string, purpose: string, lifetime: string) => ({
    name: `<code dir="ltr">${escapeText(name)}</code>`,
    purpose: text(purpose),
    lifetime: text(lifetime),
  });
  return {
    consentModal: {
      title: text("consent.banner.title"),
      // The library puts the revision message in place of {{revisionMessage}} only when the stored revision differs.
      description: `${text(analytics ? "consent.banner.descriptionAnalytics" : "consent.banner.description")}{{revisionMessage}}`,
      revisionMessage: `<span class="cm__revision">${text("consent.banner.revision")}</span>`,
      // With the necessary category alone, "Accept all" and "Reject all" would record the same thing: one
      // acknowledgement stands for both (the library shows no button whose label is missing).
      acceptAllBtn: text(analytics ? "consent.actions.acceptAll" : "consent.actions.acknowledge"),
      ...(analytics ? { acceptNecessaryBtn: text("consent.actions.rejectAll") } : {}),
      showPreferencesBtn: text("consent.actions.managePreferences"),
      footer: link("/privacy", t("footer.privacy")) + link("/cookies", t("footer.cookies")),
    },
    preferencesModal: {
      title: text("consent.preferences.title"),
      savePreferencesBtn: text("consent.actions.save"),
      // An attribute value, set with setAttribute: not HTML.
      closeIconLabel: t("consent.actions.close"),
      sections: [
        {
          title: text("consent.preferences.intro.title"),
          description: text(
            analytics ? "consent.preferences.intro.descriptionAnalytics" : "consent.preferences.intro.description",
          ),
        },
        {
          title: text("consent.preferences.necessary.title"),
          description: text("consent.preferences.necessary.description"),
          linkedCategory: necessaryCategory,
          cookieTable: {
            headers,
            body: [
              row(consentCookie.name, "consent.cookies.consent", "consent.lifetime.days182"),
              row(storageKey, "consent.cookies.language", "consent.lifetime.untilCleared"),
            ],
          },
        },
        ...(analytics
          ? [
              {
                title: text("consent.preferences.analytics.title"),
                description: text("consent.preferences.analytics.description"),
                linkedCategory: analyticsCategory,
                cookieTable: {
                  headers,
                  body: [
                    row("_ga", "consent.cookies.visitors", "consent.lifetime.years2"),
                    row("_ga_<ID>", "consent.cookies.session", "consent.lifetime.years2"),
                    row("_gid", "consent.cookies.visitors", "consent.lifetime.hours24"),
                  ],
                },
              },
            ]
          : []),
        {
          title: text("consent.preferences.more.title"),
          description: withLinks("consent.preferences.more.description", {
            privacy: link("/privacy", t("consent.preferences.more.privacyLink")),
            cookies: link("/cookies", t("consent.preferences.more.cookiesLink")),
          }),
        },
      ],
    },
  };
}
