// Client: every page is a chunk of its own (React.lazy); the chunk of the
// page being hydrated is preloaded first, so hydration never suspends.
import { createElement, lazy, type ComponentType } from "react";
import type { PageEntry, PageMap, PageProps } from "./types";

function lazyPage(load: () => Promise<{ default: ComponentType<PageProps> }>): PageEntry {
  let loaded: ComponentType<PageProps> | undefined;
  const Lazy = lazy(load);
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

export const pages: PageMap = {
  Home: lazyPage(() => import("./Home")),
  BlogList: lazyPage(() => import("./BlogList")),
  BlogPost: lazyPage(() => import("./BlogPost")),
  Schedule: lazyPage(() => import("./Schedule")),
  CancelBooking: lazyPage(() => import("./CancelBooking")),
  RescheduleBooking: lazyPage(() => import("./RescheduleBooking")),
  Legal: lazyPage(() => import("./Legal")),
  NotFound: lazyPage(() => import("./NotFound")),
  CaseStudies: lazyPage(() => import("./CaseStudies")),
  CaseStudy: lazyPage(() => import("./CaseStudy")),
  Team: lazyPage(() => import("./Team")),
  Person: lazyPage(() => import("./Person")),
};
