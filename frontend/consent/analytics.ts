// Google Analytics 4 behind consent: the Consent Mode state follows the
// visitor's analytics choice, and gtag.js is requested only once analytics
// is granted and a measurement ID is configured. With no ID, nothing is
// ever requested from an analytics host.

/** gtagScriptURL is where gtag.js is loaded from (the site's CSP must allow it when an ID is set). */
export function gtagScriptURL(measurementId: string): string {
  return `https://www.googletagmanager.com/gtag/js?id=${encodeURIComponent(measurementId)}`;
}

/**
 * analyticsFollower returns the function to call with the analytics choice
 * whenever it is known or changes. Consent Mode hears each change once: the
 * entry applies a stored decision, and the library, started later for the
 * preferences, repeats it.
 */
export function analyticsFollower(
  gtag: (...command: unknown[]) => void,
  measurementId: string,
): (granted: boolean) => void {
  let loaded = false;
  let last: boolean | undefined;
  return (granted) => {
    if (granted === last) return;
    last = granted;
    gtag("consent", "update", { analytics_storage: granted ? "granted" : "denied" });
    if (!granted || !measurementId || loaded) return;
    loaded = true;
    gtag("js", new Date());
    gtag("config", measurementId);
    const script = document.createElement("script");
    script.async = true;
    script.src = gtagScriptURL(measurementId);
    document.head.appendChild(script);
  };
}
