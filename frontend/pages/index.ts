// Client: every page of the table is a chunk of its own (React.lazy); the
// chunk of the page being hydrated is preloaded first, so hydration never
// suspends.
import { createElement, lazy, type ComponentType } from "react";
import lazyPages from "virtual:pages/lazy";
import type { PageEntry, PageMap, PageModule, PageProps } from "./types";

function lazyPage(load: () => Promise<PageModule>): PageEntry {
  let loaded: ComponentType<PageProps> | undefined;
  const Lazy = lazy(load);
  // biome-ignore lint/correctness/noComponentHookFactories: lazyPage runs once per page type when the module loads, never in a render: each Page is made once
  function Page(props: PageProps) {
    return createElement(loaded ?? Lazy, props);
  }
  return {
    Component: Page,
    preload: () =>
      load().then((m) => {
        loaded = m.default;
      }),
    loaded: () => loaded !== undefined,
  };
}

export const pages: PageMap = lazyPages(lazyPage);
