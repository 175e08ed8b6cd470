import type { ComponentType } from "react";
import type { Payload } from "../lib/payload";
import type { PageName } from "./table";

export interface PageProps {
  payload: Payload;
}

/** PageModule is a page's module (frontend/pages/<name>.tsx): its component, the default export. */
export interface PageModule {
  default: ComponentType<PageProps>;
}

export interface PageEntry {
  Component: ComponentType<PageProps>;
  /** preload fetches the page's chunk, so that rendering it does not suspend. */
  preload: () => Promise<void>;
  /** loaded tells whether the page's chunk is here, so that rendering it will not suspend. */
  loaded: () => boolean;
}

export type PageMap = Record<PageName, PageEntry>;
