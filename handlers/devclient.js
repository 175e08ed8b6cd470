// The -dev loop's client (handlers/dev.go), in every page a -dev server
// answers and in no other: it listens to the builds' event stream, reloads
// the page when its build changed, swaps the stylesheets when only they
// changed, and shows a build or render error over the page until it is
// fixed. A page never runs a mix of two builds: it reloads whole.
(() => {
  const script = document.currentScript;
  let build = Number(script.dataset.build);
  const js = Number(script.dataset.js);
  const server = script.dataset.server;
  const overlayID = "dev-overlay";
  const titles = { build: "Build error", go: "Go build error", type: "Type error", string: "Missing string" };
  // These keep the newest sources from being served: the page stays as it
  // is under them. The others (a type error, a missing string) show over
  // a page that still follows the builds.
  const blocking = new Set(["build", "render", "go"]);

  function hideProblems() {
    document.getElementById(overlayID)?.remove();
  }

  function showProblems(problems) {
    hideProblems();
    const box = document.createElement("div");
    box.id = overlayID;
    box.setAttribute("role", "alert");
    Object.assign(box.style, {
      position: "fixed",
      inset: "0",
      zIndex: "2147483647",
      overflow: "auto",
      padding: "2rem 1rem",
      background: "rgba(0, 0, 0, 0.6)",
      color: "#f5f5f5",
      font: "14px/1.5 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace",
      direction: "ltr",
      textAlign: "left",
      whiteSpace: "pre-wrap",
    });
    for (const p of problems) {
      const title = document.createElement("div");
      title.style.color = "#ff8080";
      title.style.fontWeight = "bold";
      title.textContent = titles[p.kind] ?? `Render error${p.path ? ` in ${p.path}` : ""}`;
      const where = document.createElement("div");
      where.className = "dev-overlay-where";
      where.textContent = [p.file, p.line, p.column].filter(Boolean).join(":");
      const message = document.createElement("div");
      message.className = "dev-overlay-message";
      message.textContent = p.message;
      const line = document.createElement("div");
      line.style.color = "#aaa";
      line.textContent = p.lineText ? `${p.line} | ${p.lineText}` : "";
      const block = document.createElement("section");
      Object.assign(block.style, {
        maxWidth: "60rem",
        margin: "0 auto 1rem",
        padding: "1rem 1.25rem",
        background: "#1b1b1b",
        borderInlineStart: "4px solid #ff6b6b",
        borderRadius: "6px",
        overflowWrap: "anywhere",
      });
      block.append(title, where, message, line);
      box.append(block);
    }
    const hint = document.createElement("div");
    Object.assign(hint.style, { marginBlockStart: "0.75rem", color: "#aaa" });
    hint.textContent = "Save the fix: this page follows by itself.";
    box.lastElementChild?.append(hint);
    document.body.append(box);
  }

  function swapStylesheets(hrefs) {
    const old = [...document.querySelectorAll('link[rel="stylesheet"][href^="/assets/"]')];
    const anchor = old[0] ?? null;
    for (const href of hrefs) {
      const link = document.createElement("link");
      link.rel = "stylesheet";
      link.href = href;
      // The old sheets go once the new ones apply: no flash of unstyled page.
      link.addEventListener("load", () => {
        for (const o of old) {
          o.remove();
        }
      });
      document.head.insertBefore(link, anchor);
    }
  }

  const events = new EventSource(`/_dev/events?path=${encodeURIComponent(location.pathname)}`);
  events.addEventListener("state", (e) => {
    const state = JSON.parse(e.data);
    const problems = state.problems ?? [];
    if (problems.some((p) => blocking.has(p.kind))) {
      showProblems(problems);
      return;
    }
    if (state.server !== server || (state.build !== build && state.js > js)) {
      // Another build's scripts, or another server process (a Go change):
      // the page reloads whole, and the new page shows what is left.
      events.close();
      location.reload();
      return;
    }
    if (state.build !== build) {
      swapStylesheets(state.css);
      build = state.build;
    }
    if (problems.length) {
      showProblems(problems);
    } else {
      hideProblems();
    }
  });
})();
