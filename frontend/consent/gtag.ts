// Google Consent Mode v2. Importing this module (the entry does it first)
// queues the defaults, everything denied, before any other code of the site
// runs and long before gtag.js could ever load: gtag.js reads the queue
// when it arrives, so no measurement happens without a later "granted".

declare global {
  interface Window {
    dataLayer: unknown[];
  }
}

/** ConsentState is a Consent Mode value. */
export type ConsentState = "granted" | "denied";

window.dataLayer = window.dataLayer || [];

/** gtag queues a command for gtag.js, as Google's snippet does. */
export function gtag(..._command: unknown[]): void {
  // gtag.js only reads Arguments objects from the queue, not arrays.
  // biome-ignore lint/complexity/noArguments: the Arguments object itself is what gtag.js expects, as said above
  window.dataLayer.push(arguments);
}

gtag("consent", "default", {
  ad_storage: "denied",
  ad_user_data: "denied",
  ad_personalization: "denied",
  analytics_storage: "denied",
});
