// The site's bundles, declared once.
//
// The Go builder (internal/assets) reads this file through esbuild itself:
// it is turned into CommonJS, evaluated in goja, and the exported options are
// mapped onto esbuild's Go API. `go run .` builds in memory from it, and
// `npm run build:binary` writes the same bundles to dist/ for the binary to
// embed. Keep it declarative: plain options, no plugins, no imports.

// react-router's package.json resolves every import to its development
// build, dev warnings on (remix-run/react-router#14102): point both bundles
// at the production build it ships beside it.
const productionRouter = {
  "react-router": "./node_modules/react-router/dist/production/index.mjs",
  "react-router/dom": "./node_modules/react-router/dist/production/dom-export.mjs",
};

const shared = {
  bundle: true,
  jsx: "automatic",
  define: { "process.env.NODE_ENV": '"production"' },
  charset: "utf8",
  legalComments: "none",
  tsconfig: "tsconfig.json",
  alias: productionRouter,
};

export default {
  // The site's languages, declared once in content/site.json: every bundle
  // may import what the build derives from them (internal/assets,
  // languageModules): "virtual:languages", the language table;
  // "virtual:cldr", the time step's CLDR data of each language, a chunk per
  // file. No language is named in frontend/. The strings are in no bundle:
  // the server's are given to it by the render engine, the client's are
  // modules of their own whose place each page's payload gives.
  site: "content/site.json",

  // The browser bundle: ES modules, one chunk per page (pages are React.lazy)
  // and one per language and string group (strings are imported on demand),
  // content-hashed names served as immutable from /assets/.
  client: {
    ...shared,
    // boot.ts is each page's first script, which starts the entry after the
    // first paint; the consent banner's stylesheet is an entry of its own,
    // linked by the consent chunk when it starts (frontend/consent/banner.ts).
    entryPoints: ["frontend/boot.ts", "frontend/entry-client.tsx", "frontend/consent/consent.css"],
    platform: "browser",
    format: "esm",
    splitting: true,
    target: "es2020",
    minify: true,
    entryNames: "[name]-[hash]",
    chunkNames: "chunks/[name]-[hash]",
    assetNames: "media/[name]-[hash]",
    publicPath: "/assets/",
    // Each language's strings (content/locales/<lang>.json, one file that
    // translators edit) are cut into the groups this file declares, a chunk
    // per language and group: a page loads the shell's group and its own
    // (internal/assets, StringGroups). The server has them all.
    strings: "frontend/lib/strings.json",
    // The page table: every page type, declared once. The build makes the
    // page list that frontend/pages/index.ts imports from it, each page a
    // chunk loaded on demand (internal/assets, PageTable).
    pages: "frontend/pages/table.ts",
  },

  // The server bundle, evaluated by goja. goja has no dynamic import(), so
  // it is lowered; the "server" condition makes package.json's "#pages"
  // import resolve to eagerly imported pages (the server always renders the
  // whole page); react-dom/server resolves to the synchronous legacy build,
  // whose streaming half would need MessageChannel and TextEncoder at load.
  server: {
    ...shared,
    entryPoints: ["frontend/entry-server.tsx"],
    platform: "browser",
    format: "iife",
    target: "es2020",
    minify: true,
    conditions: ["server"],
    supported: { "dynamic-import": false },
    alias: {
      ...productionRouter,
      "react-dom/server": "./node_modules/react-dom/cjs/react-dom-server-legacy.browser.production.js",
      // react-router with a Link and a NavLink that write their anchor for
      // less work, and useTranslation without react-i18next's bookkeeping
      // (see each file).
      "react-router-dom": "./frontend/lib/router.server.tsx",
      "react-i18next": "./frontend/lib/react-i18next.server.ts",
    },
    // renderToString appends each chunk of HTML to one string; goja's
    // strings are flat, so every append copies the page so far. This has
    // the builder rewrite it to join the chunks once (internal/assets,
    // joinOutputPlugin): a third of a render's time in goja.
    joinRenderOutput: true,
    loader: { ".css": "empty" },
    // The same page table: index.server.ts imports every page at once.
    pages: "frontend/pages/table.ts",
  },

  // The staff workspace under /staff: a build of its own, rendered in the
  // browser from the workspace's JSON (see README, "Staff workspace"), so
  // that the client bundle above, which every visitor loads, holds no byte
  // of it. Its files sit under /assets/staff/; its strings are a chunk per
  // language, from content/staff/locales.
  staff: {
    ...shared,
    entryPoints: ["frontend/staff/entry.tsx"],
    platform: "browser",
    format: "esm",
    splitting: true,
    target: "es2020",
    minify: true,
    entryNames: "staff/[name]-[hash]",
    chunkNames: "staff/chunks/[name]-[hash]",
    assetNames: "staff/media/[name]-[hash]",
    publicPath: "/assets/",
  },
};
