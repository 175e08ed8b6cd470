package e2etest

// OverflowCulprits names what reaches past a 320 px screen: the page's
// width when it scrolls sideways, and the innermost elements that stick
// out, each as tag.class#id and its right (or left) edge. Empty when
// nothing does.
const OverflowCulprits = `(() => {
	const w = document.documentElement.clientWidth;
	const out = [];
	if (document.documentElement.scrollWidth > w) out.push("page is " + document.documentElement.scrollWidth + " px wide");
	const wide = [...document.querySelectorAll("body *")].filter((el) => {
		// Inside a box that scrolls or clips, sticking out is that box's business.
		for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
			if (getComputedStyle(a).overflowX !== "visible") return false;
		}
		const r = el.getBoundingClientRect();
		return r.width > 0 && r.height > 0 && (r.right > w + 0.5 || r.left < -0.5);
	});
	const innermost = wide.filter((el) => !wide.some((o) => o !== el && el.contains(o)));
	for (const el of innermost.slice(0, 5)) {
		const r = el.getBoundingClientRect();
		out.push(el.tagName.toLowerCase() + (el.className && typeof el.className === "string" ? "." + el.className.trim().split(/\s+/).join(".") : "") +
			(el.id ? "#" + el.id : "") + " " + JSON.stringify((el.textContent || "").trim().slice(0, 40)) +
			" from " + Math.round(r.left) + " to " + Math.round(r.right) + " px");
	}
	return out;
})()`
