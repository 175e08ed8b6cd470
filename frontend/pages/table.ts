// The page table: every page type of the site, declared once. A page's
// name is its module's (frontend/pages/<name>.tsx, default export); the
// build makes both page lists from this table (internal/assets, PageTable):
// the client's, a chunk per page loaded on demand, and the server's, every
// page imported at once. The Go build evaluates this file as it is, so it
// imports types only.
import type { StringGroup } from "../lib/i18n";

interface PageType {
  /**
   * paths are the patterns of the paths the page holds, without the
   * language prefix: "/blog" is that path, ":slug" any one segment, "*"
   * any path no other pattern holds.
   */
  paths: readonly string[];
  /** strings are the string groups it shows beside the shell's (frontend/lib/strings.json). */
  strings: readonly StringGroup[];
}

export const pageTable = {
  Home: { paths: ["/", "/services", "/services/:service"], strings: ["home"] },
  BlogList: { paths: ["/blog", "/blog/page/:number", "/blog/tag/:tag", "/blog/tag/:tag/page/:number"], strings: ["blog"] },
  BlogPost: { paths: ["/blog/:slug"], strings: ["blog"] },
  Schedule: { paths: ["/schedule", "/schedule/:service"], strings: ["schedule"] },
  CancelBooking: { paths: ["/schedule/cancel"], strings: ["schedule", "booking"] },
  RescheduleBooking: { paths: ["/schedule/reschedule"], strings: ["schedule", "booking"] },
  Legal: { paths: ["/privacy", "/cookies", "/imprint"], strings: ["legal"] },
  NotFound: { paths: ["*"], strings: ["notFound"] },
  CaseStudies: { paths: ["/work"], strings: ["work"] },
  CaseStudy: { paths: ["/work/:slug"], strings: ["work"] },
  Team: { paths: ["/team"], strings: ["team"] },
  Person: { paths: ["/team/:slug"], strings: ["team"] },
} as const satisfies Record<string, PageType>;

/** PageName names a page type of the table (and its module). */
export type PageName = keyof typeof pageTable;

/** Route is the page a path holds, and the pattern of the table that says so. */
export interface Route {
  page: PageName;
  pattern: string;
}

/**
 * routeOf tells which page a path (without its language prefix) holds, so
 * that a client navigation loads the page's chunk and strings while its
 * data loads. The pattern with the most literal segments wins, "*" last;
 * between equals, the first in the table. The server's payload has the
 * last word; a Go test holds the server's routes to this table.
 */
export function routeOf(rest: string): Route {
  const segments = rest.split("/").filter(Boolean);
  let best: Route | undefined;
  let bestRank = -1;
  for (const page of Object.keys(pageTable) as PageName[]) {
    for (const pattern of pageTable[page].paths) {
      const rank = rankOf(pattern, segments);
      if (rank > bestRank) {
        best = { page, pattern };
        bestRank = rank;
      }
    }
  }
  if (!best) throw new Error(`the page table holds no page for ${rest}`);
  return best;
}

/** rankOf returns -1 when pattern does not match the segments, else how literally it does: "*" 0, another pattern 1 and one per literal segment. */
function rankOf(pattern: string, segments: readonly string[]): number {
  if (pattern === "*") return 0;
  const parts = pattern.split("/").filter(Boolean);
  const param = (part: string) => part.startsWith(":");
  if (parts.length !== segments.length || !parts.every((part, i) => param(part) || part === segments[i])) return -1;
  return 1 + parts.filter((part) => !param(part)).length;
}
