// Lighthouse over every page type in every language, with mobile settings
// (Lighthouse's defaults: a mid-range phone, simulated slow 4G), against a
// running site. Writes the four scores of each page, and every audit that
// lost points, to a Markdown report. Run it through ../lighthouse.sh, which
// starts the site; it needs the Node this folder installs.
//
//   node run.mjs <base URL> <report.md>
import { readFile, writeFile } from "node:fs/promises";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";

const [base = "http://127.0.0.1:8090", reportPath = "lighthouse.md"] = process.argv.slice(2);
const chromePath = process.env.CHROME_PATH || "/usr/bin/chromium";
// The site's languages, as content/site.json lists them.
const site = JSON.parse(await readFile(new URL("../../content/site.json", import.meta.url), "utf8"));
const languages = site.languages.map(({ code, prefix }) => ({ code, prefix }));
const categories = ["performance", "accessibility", "best-practices", "seo"];

// One post per language, from the sitemap: the newest in that language.
async function firstPost(prefix) {
  const sitemap = await (await fetch(`${base}/sitemap.xml`)).text();
  const re = new RegExp(`<loc>[^<]*?(${prefix}/blog/(?!page/|tag/)[^<]+)</loc>`, "g");
  const m = re.exec(sitemap);
  if (!m) throw new Error(`no ${prefix || "en"} post in the sitemap`);
  return m[1];
}

const pageTypes = [
  ["home", () => "/"],
  ["service", () => "/services/platform-engineering"],
  ["blog list", () => "/blog"],
  ["blog post", (prefix) => firstPost(prefix)],
  ["schedule", () => "/schedule"],
  ["schedule time step", () => "/schedule/discovery"],
  ["privacy", () => "/privacy"],
  ["cookies", () => "/cookies"],
  ["not found", () => "/no-such-page"],
];

// LH_PAGES="home,blog list" audits only those page types (a quicker look).
const only = process.env.LH_PAGES ? process.env.LH_PAGES.split(",").map((s) => s.trim()) : null;
const selected = only ? pageTypes.filter(([type]) => only.includes(type)) : pageTypes;

const chrome = await chromeLauncher.launch({
  chromePath,
  chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu"],
});
// audit runs Lighthouse on url, again when the trace itself failed to
// record (NO_NAVSTART and its kin are Lighthouse's, not the page's).
async function audit(url) {
  for (let attempt = 1; ; attempt++) {
    const { lhr } = await lighthouse(url, {
      port: chrome.port,
      output: "json",
      logLevel: "error",
      onlyCategories: categories,
      // The not-found page answers 404, as it should: audit it all the same.
      ignoreStatusCode: true,
    });
    if (!lhr.runtimeError) return lhr;
    if (attempt === 3) throw new Error(`${url}: ${lhr.runtimeError.message}`);
    console.log(`retrying ${url}: ${lhr.runtimeError.code}`);
  }
}

const rows = [];
const losses = [];
try {
  for (const [type, pathOf] of selected) {
    for (const { code, prefix } of languages) {
      let path = await pathOf(prefix);
      if (!path.startsWith(`${prefix}/`) && path !== prefix) path = prefix + (path === "/" && prefix ? "" : path);
      const url = base + path;
      const lhr = await audit(url);
      const scores = categories.map((c) => Math.round((lhr.categories[c].score ?? 0) * 100));
      rows.push({ type, code, path, scores, metrics: {
        fcp: lhr.audits["first-contentful-paint"].displayValue,
        lcp: lhr.audits["largest-contentful-paint"].displayValue,
        tbt: lhr.audits["total-blocking-time"].displayValue,
        cls: lhr.audits["cumulative-layout-shift"].displayValue,
      } });
      for (const c of categories) {
        for (const ref of lhr.categories[c].auditRefs) {
          const audit = lhr.audits[ref.id];
          if (ref.weight > 0 && audit.score !== null && audit.score < 1) {
            losses.push({ path, category: c, id: ref.id, title: audit.title, value: audit.displayValue ?? "", score: audit.score });
          }
        }
      }
      console.log(`${scores.join(" ")}  ${path}`);
    }
  }
} finally {
  await chrome.kill();
}

const lines = [
  "# Lighthouse report",
  "",
  `Lighthouse 13.5.0, mobile settings (Lighthouse's defaults: emulated mid-range phone, simulated slow 4G, 4x CPU slowdown), headless Chromium, run by \`bench/lighthouse.sh\` against the production binary on loopback, cookie banner shown as visitors see it. Generated ${new Date().toISOString().slice(0, 10)}.`,
  "",
  "| Page type | Path | Performance | Accessibility | Best practices | SEO | FCP | LCP | TBT | CLS |",
  "|---|---|---|---|---|---|---|---|---|---|",
  ...rows.map((r) => `| ${r.type} | \`${r.path}\` | ${r.scores.join(" | ")} | ${r.metrics.fcp} | ${r.metrics.lcp} | ${r.metrics.tbt} | ${r.metrics.cls} |`),
  "",
  "## Audits that lost points",
  "",
];
if (losses.length === 0) {
  lines.push("None: every weighted audit passed on every page.");
} else {
  lines.push("| Path | Category | Audit | Value | Score |", "|---|---|---|---|---|");
  for (const l of losses) lines.push(`| \`${l.path}\` | ${l.category} | ${l.title} (\`${l.id}\`) | ${l.value} | ${l.score} |`);
}
await writeFile(reportPath, `${lines.join("\n")}\n`);
console.log(`report: ${reportPath}`);
