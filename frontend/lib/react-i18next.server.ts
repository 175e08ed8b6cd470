// Server: react-i18next as the server bundle sees it (esbuild.config.mjs
// aliases it here): the three things the site uses, I18nextProvider,
// useTranslation and initReactI18next, for a server render only.
// react-i18next's useTranslation subscribes to the instance's events,
// checks that its namespaces are loaded and copies the instance into a
// wrapper on every call: in goja a tenth of a page's render. On the server
// an instance is made once per runtime and language, with every string
// loaded (locales.server.ts), and nothing re-renders, so useTranslation is
// a context read and the instance's t function for its language. The build
// fails if the server bundle imports anything else from react-i18next.
import type { i18n as I18n } from "i18next";
import { createContext, createElement, type ReactNode, useContext } from "react";

interface Context {
  i18n: I18n;
  defaultNS?: string | readonly string[];
}

const I18nContext = createContext<Context | undefined>(undefined);

export function I18nextProvider({ i18n, defaultNS, children }: Context & { children?: ReactNode }) {
  return createElement(I18nContext.Provider, { value: { i18n, defaultNS } }, children);
}

/** initReactI18next is the i18next plugin that hands its React options to useTranslation; they are read from the instance. */
export const initReactI18next = { type: "3rdParty", init() {} } as const;

type Translation = [I18n["t"], I18n, boolean] & { t: I18n["t"]; i18n: I18n; ready: boolean };

const answers = new WeakMap<I18n["t"], Translation>();

/**
 * useTranslation returns what react-i18next's does, the t function that
 * i18n.getFixedT makes for the language, the namespaces (as given, from
 * the provider, or the instance's default) and the key prefix, with the
 * instance and ready, which is always true here.
 */
export function useTranslation(ns?: string | readonly string[], options?: { keyPrefix?: string; nsMode?: "default" | "fallback"; lng?: string }) {
  const context = useContext(I18nContext);
  if (!context) throw new Error("useTranslation: no I18nextProvider above this component");
  const { i18n } = context;
  const react = i18n.options.react as { keyPrefix?: string; nsMode?: "default" | "fallback" } | undefined;
  const nsOrContext = ns || context.defaultNS || i18n.options.defaultNS;
  const namespaces = typeof nsOrContext === "string" ? [nsOrContext] : nsOrContext || ["translation"];
  const keyPrefix = options?.keyPrefix ?? react?.keyPrefix;
  const nsMode = options?.nsMode ?? react?.nsMode;
  const getFixedT = i18n.getFixedT as unknown as (lng: string, ns: unknown, keyPrefix: unknown, opts: { scopeNs: unknown }) => I18n["t"];
  const t = getFixedT.call(i18n, options?.lng || i18n.language, nsMode === "fallback" ? namespaces : namespaces[0], keyPrefix, { scopeNs: namespaces });
  let answer = answers.get(t);
  if (!answer) {
    answer = Object.assign([t, i18n, true], { t, i18n, ready: true }) as Translation;
    answers.set(t, answer);
  }
  return answer;
}
