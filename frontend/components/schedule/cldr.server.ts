// Server: the time step's CLDR data is loaded in the browser only (after
// hydration), so the server bundle, which goja evaluates, never holds it.
import type { Lang } from "../../lib/languages";
import type { Cldr } from "./cldr";

export type { Bcp47Zone, Cldr } from "./cldr";
export { weekdayKeys } from "./cldr";

export function loadCldr(_lang: Lang): Promise<Cldr> {
  return Promise.reject(new Error("the CLDR data is loaded in the browser only"));
}

export function loadedCldr(_lang: Lang): Cldr | undefined {
  return undefined;
}
