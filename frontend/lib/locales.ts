// Client: each language's strings are cut into groups (frontend/lib/
// strings.json), a module per language and group, loaded on demand: a page
// loads the shell's group (common) and its own, the consent banner its own.
import type { i18n as I18n } from "i18next";
import { addStrings, createI18n, type StringGroup, type Translate } from "./i18n";
import type { Lang } from "./languages";

export { pageGroups, type StringGroup, type Translate } from "./i18n";

/**
 * Where the strings are: the modules <lang>-<group>.js are under this URL
 * (the build's, internal/assets StringFiles), which the page's payload
 * gives (config.strings), so that no bundle holds it and a saved string
 * builds none.
 */
let stringsDir = "";

/** stringsFrom sets where the strings are (the payload's config.strings), before any is loaded. */
export function stringsFrom(dir: string): void {
  stringsDir = dir;
}

const instances = new Map<Lang, I18n>();
const loading = new Map<string, Promise<void>>();
const loaded = new Set<string>();

function loadGroup(lang: Lang, group: StringGroup): Promise<void> {
  const id = `${lang}-${group}`;
  let p = loading.get(id);
  if (!p) {
    const url = `${stringsDir}${id}.js`;
    p = (import(/* a module of the build's own, beside the chunks */ url) as Promise<{ default: Record<string, unknown> }>).then((m) => {
      const inst = instances.get(lang);
      if (inst) addStrings(inst, lang, m.default);
      else instances.set(lang, createI18n(lang, m.default));
      loaded.add(id);
    });
    // A failed download may be tried again by the next navigation.
    p.catch(() => loading.delete(id));
    loading.set(id, p);
  }
  return p;
}

const sets = new Map<string, Promise<I18n>>();

/** loadStrings loads a language's groups (the shell's always) once, and returns its i18next instance. */
export function loadStrings(lang: Lang, groups: readonly StringGroup[]): Promise<I18n> {
  // The same promise for the same groups, for React's use().
  const id = `${lang}:${groups.join()}`;
  let p = sets.get(id);
  if (!p) {
    p = Promise.all(["common" as const, ...groups].map((g) => loadGroup(lang, g))).then(() => instances.get(lang)!);
    p.catch(() => sets.delete(id));
    sets.set(id, p);
  }
  return p;
}

/** readyStrings returns a language's instance if the groups (and the shell's) are loaded already. */
export function readyStrings(lang: Lang, groups: readonly StringGroup[]): I18n | undefined {
  if (!loaded.has(`${lang}-common`) || !groups.every((g) => loaded.has(`${lang}-${g}`))) return undefined;
  return instances.get(lang);
}

/** loadTranslate loads a group of a language and returns its translate function (for the consent banner). */
export function loadTranslate(lang: Lang, group: StringGroup): Promise<Translate> {
  return loadStrings(lang, [group]).then((i18n): Translate => (key, options) => i18n.t(key, options));
}
