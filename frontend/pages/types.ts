import type { ComponentType } from "react";
import type { PageName, Payload } from "../lib/payload";

export interface PageProps {
  payload: Payload;
}

export interface PageEntry {
  Component: ComponentType<PageProps>;
  /** preload fetches the page's chunk, so that rendering it does not suspend. */
  preload: () => Promise<void>;
  /** loaded tells whether the page's chunk is here, so that rendering it will not suspend. */
  loaded: () => boolean;
}

export type PageMap = Record<PageName, PageEntry>;
