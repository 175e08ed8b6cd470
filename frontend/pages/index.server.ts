// Server: pages are imported eagerly, so the server always renders the whole
// page inside a completed Suspense boundary. Chosen by the "server"
// condition of package.json's "#pages" import (see esbuild.config.mjs).
import BlogList from "./BlogList";
import BlogPost from "./BlogPost";
import CancelBooking from "./CancelBooking";
import CaseStudies from "./CaseStudies";
import CaseStudy from "./CaseStudy";
import RescheduleBooking from "./RescheduleBooking";
import Home from "./Home";
import Legal from "./Legal";
import NotFound from "./NotFound";
import Person from "./Person";
import Schedule from "./Schedule";
import Team from "./Team";
import type { PageMap } from "./types";

const ready = () => Promise.resolve();

export const pages: PageMap = {
  Home: { Component: Home, preload: ready },
  BlogList: { Component: BlogList, preload: ready },
  BlogPost: { Component: BlogPost, preload: ready },
  Schedule: { Component: Schedule, preload: ready },
  CancelBooking: { Component: CancelBooking, preload: ready },
  RescheduleBooking: { Component: RescheduleBooking, preload: ready },
  Legal: { Component: Legal, preload: ready },
  NotFound: { Component: NotFound, preload: ready },
  CaseStudies: { Component: CaseStudies, preload: ready },
  CaseStudy: { Component: CaseStudy, preload: ready },
  Team: { Component: Team, preload: ready },
  Person: { Component: Person, preload: ready },
};
