declare module "*.css";

/**
 * The pages of the page table (frontend/pages/table.ts), made by the build
 * (internal/assets, PageTable): a function that makes a record of every
 * page from its module, frontend/pages/<name>.tsx. Lazy: each module is
 * imported on demand, a chunk of its own (the client). Eager: all are
 * imported at once (the server, whose render must never suspend).
 */
declare module "virtual:pages/lazy" {
  export default function lazyPages<T>(
    page: (load: () => Promise<import("./pages/types").PageModule>) => T,
  ): Record<import("./pages/table").PageName, T>;
}
declare module "virtual:pages/eager" {
  export default function eagerPages<T>(
    page: (component: import("./pages/types").PageModule["default"]) => T,
  ): Record<import("./pages/table").PageName, T>;
}

/**
 * The site's languages, as content/site.json declares them, with the first
 * day of each one's week from CLDR (made by the build: internal/assets,
 * languageModules). frontend/lib/languages.ts is its one reader.
 */
declare module "virtual:languages" {
  const table: {
    languages: {
      code: string;
      tag: string;
      label: string;
      dir: "ltr" | "rtl";
      prefix: string;
      /** locale is the BCP 47 locale Intl writes the language's dates and times in ("ar-u-nu-latn": Western digits). */
      locale: string;
      /** hourCycle is the clock the site writes times on, where it is not the locale's own. */
      hourCycle?: "h12" | "h23";
      /** firstDay is the first day of the language's week, 0 for Sunday (CLDR). */
      firstDay: number;
    }[];
    defaultLanguage: string;
    storageKey: string;
  };
  export default table;
}

/**
 * For each language, by code, the CLDR locale of its data and a loader of
 * the time step's files in it (timeZoneNames.json, ca-gregorian.json), each
 * a chunk of its own.
 */
declare module "virtual:cldr" {
  const loaders: Record<string, { locale: string; load: () => Promise<[{ default: unknown }, { default: unknown }]> }>;
  export default loaders;
}
