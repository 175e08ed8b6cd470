// Server: every language's strings, whole (the groups of the client,
// locales.ts, are all there), are data the render engine gives the bundle
// in a global (render.Options.Strings), not part of the bundle: a saved
// string builds no bundle (docs/ARCHITECTURE.md, The dev loop). A
// language's instance is made on its first render in a runtime, and again
// only when the engine gives the runtime other strings.
import type { i18n as I18n, InitOptions } from "i18next";
import { createI18n, type StringGroup, type Translate } from "./i18n";
import { defaultLang, languages, type Lang } from "./languages";

export { pageGroups, type StringGroup, type Translate } from "./i18n";

type Strings = Record<string, Record<string, unknown>>;

/** The strings the instances were made from, and the instances made so far. */
let madeFrom: Strings | undefined;
let instances = new Map<Lang, I18n>();

/** instanceOf returns lang's instance of the strings the engine gives now (globalThis.__siteStrings), made on first use: again when they changed. */
function instanceOf(lang: Lang): I18n | undefined {
  const strings = (globalThis as { __siteStrings?: Strings }).__siteStrings ?? {};
  if (strings !== madeFrom) {
    madeFrom = strings;
    instances = new Map<Lang, I18n>();
  }
  let inst = instances.get(lang);
  if (!inst && languages.some((l) => l.code === lang)) {
    inst = rememberTranslations(createI18n(lang, strings[lang] ?? {}, reportingMissing(lang)));
    instances.set(lang, inst);
  }
  return inst;
}

/** missed counts the strings asked for that a language lacks: t keeps none of them, so each render reports them. */
let missed = 0;

/**
 * reportingMissing makes i18next tell of every string a render asks for
 * that lang lacks (its key shows on the page instead): the key, the
 * language and the stack of the call, which the render engine maps to the
 * TSX line that asked (render.MissingString) for the log and the -dev
 * overlay.
 */
function reportingMissing(lang: Lang): InitOptions {
  return {
    saveMissing: true,
    saveMissingPlurals: false,
    missingKeyHandler: (_lngs, _ns, key) => {
      missed++;
      const found = (globalThis as { __missingStrings?: unknown[] }).__missingStrings;
      found?.push({ key, lang, stack: new Error().stack ?? "" });
    },
  };
}

type FixedT = ((key: unknown, options?: unknown, ...rest: unknown[]) => unknown) & Record<string, unknown>;

/** The most translations one t function keeps; past it, it translates without keeping. */
const keptPerT = 4096;

/**
 * rememberTranslations makes each t function of inst (react-i18next asks
 * for one per useTranslation) keep the strings it returned, by key and
 * options, so that a string is translated once per runtime rather than on
 * every render: in goja, i18next's lookup, with its copies of the options,
 * was a fifth of a render. The server's instances never change language
 * or strings (other strings make other instances), so a kept string stays
 * right. Only a string key whose
 * options are all strings, numbers or booleans is kept, and only what
 * translates to a string.
 */
function rememberTranslations(inst: I18n): I18n {
  const getFixedT = inst.getFixedT.bind(inst) as unknown as (...args: unknown[]) => FixedT;
  const made = new Map<string, FixedT>();
  const remembering = (lng: unknown, ns: unknown, keyPrefix: unknown, fixedOpts?: { scopeNs?: unknown }) => {
    const id = `${String(lng)}|${String(ns)}|${String(keyPrefix)}|${String(fixedOpts?.scopeNs)}`;
    const known = made.get(id);
    if (known) return known;
    const translate = getFixedT(lng, ns, keyPrefix, fixedOpts);
    const kept = new Map<string, string>();
    const t = ((key: unknown, options?: unknown, ...rest: unknown[]) => {
      const id = keepKey(key, options, rest);
      if (id === undefined) return translate(key, options, ...rest);
      let out = kept.get(id);
      if (out === undefined) {
        const before = missed;
        const got = translate(key, options);
        if (typeof got !== "string") return got;
        out = got;
        if (kept.size < keptPerT && missed === before) kept.set(id, out);
      }
      return out;
    }) as FixedT;
    Object.assign(t, translate); // lng, ns and keyPrefix, which react-i18next reads
    made.set(id, t);
    return t;
  };
  (inst as unknown as { getFixedT: typeof remembering }).getFixedT = remembering;
  return inst;
}

/** keepKey names a translation by its key and options, or is undefined when it is not to be kept. */
function keepKey(key: unknown, options: unknown, rest: unknown[]): string | undefined {
  if (typeof key !== "string" || rest.length > 0) return undefined;
  if (options === undefined) return key;
  if (typeof options !== "object" || options === null) return undefined;
  let id = key;
  for (const [name, value] of Object.entries(options)) {
    if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean") return undefined;
    id += `\u0000${name}\u0001${typeof value}\u0001${String(value)}`;
  }
  return id;
}

function instance(lang: Lang): I18n {
  return (instanceOf(lang) ?? instanceOf(defaultLang))!;
}

export function loadStrings(lang: Lang, _groups: readonly StringGroup[]): Promise<I18n> {
  return Promise.resolve(instance(lang));
}

export function readyStrings(lang: Lang, _groups: readonly StringGroup[]): I18n | undefined {
  return instance(lang);
}

export function loadTranslate(lang: Lang, _group: StringGroup): Promise<Translate> {
  const i18n = instance(lang);
  return Promise.resolve((key, options) => i18n.t(key, options));
}
