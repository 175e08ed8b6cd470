declare module "*.css";

/**
 * Where the strings are: every language's strings, cut into the groups of
 * frontend/lib/strings.json, are modules <lang>-<group>.js under this path
 * (made by the build: internal/assets, StringGroups).
 */
declare module "virtual:strings" {
  const stringsDir: string;
  export default stringsDir;
}

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
