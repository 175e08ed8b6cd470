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
