// The Node half of `go run ./bench render`: it evaluates the same server
// bundle goja runs and times its renderPage on the same payloads, called as
// the render engine calls it (one JSON string in, one HTML string out).
//
//   node render_node.mjs server.js payloads.json warmup samples [strings.json]
//
// strings.json is every language's strings, an object by language code
// (render.Options.Strings): set as the global __siteStrings before the
// bundle is evaluated, as the render engine sets them (render/engine.go,
// useStrings), since the bundle holds no strings of its own
// (frontend/lib/locales.server.ts). Without it the global stays unset, as
// in an engine given none.
//
// payloads.json is [{name, payload}]; it prints {name: {ms, cpu, html}}:
// the wall time of each measured render, the process's CPU time (all its
// threads: V8's compilers and collector count) per render, the HTML.
import { readFileSync } from "node:fs";
import { runInThisContext } from "node:vm";

const [bundlePath, payloadsPath, warmupArg, samplesArg, stringsPath] = process.argv.slice(2);
if (stringsPath) globalThis.__siteStrings = JSON.parse(readFileSync(stringsPath, "utf8"));
runInThisContext(readFileSync(bundlePath, "utf8"), { filename: "server.js" });
const renderPage = globalThis.renderPage;
const pages = JSON.parse(readFileSync(payloadsPath, "utf8"));
const warmup = Number(warmupArg);
const samples = Number(samplesArg);

// Every page type is rendered warmup times before any is measured, so that
// the JIT has seen them all: what a server that has run a while spends.
for (let i = 0; i < warmup; i++) for (const { payload } of pages) renderPage(payload);
const out = {};
for (const { name, payload } of pages) {
  const html = renderPage(payload);
  const ms = [];
  const cpu = process.cpuUsage();
  for (let i = 0; i < samples; i++) {
    const start = process.hrtime.bigint();
    renderPage(payload);
    ms.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  const used = process.cpuUsage(cpu);
  out[name] = { ms, cpu: (used.user + used.system) / 1000 / samples, html };
}
process.stdout.write(JSON.stringify(out));
