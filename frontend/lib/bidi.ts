/**
 * isolate returns s between Unicode's first-strong isolate and its pop
 * (FSI, PDI): a value set into a sentence (a date, a time, a zone's name,
 * an address) is laid out whole, in its own direction, so that right-to-left
 * text keeps it in its order. For an element, <bdi> does the same.
 */
export const isolate = (s: string): string => `\u2068${s}\u2069`;
