// Package pages holds the browser tests of the public pages as a whole:
// hydration without console errors, client navigation, the language
// selector and redirects, the blog, the case studies, and the browser under
// the server's Content Security Policy.
package pages
