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
const loaded = () => true;

export const pages: PageMap = {
  Home: { Component: Home, preload: ready, loaded },
  BlogList: { Component: BlogList, preload: ready, loaded },
  BlogPost: { Component: BlogPost, preload: ready, loaded },
  Schedule: { Component: Schedule, preload: ready, loaded },
  CancelBooking: { Component: CancelBooking, preload: ready, loaded },
  RescheduleBooking: { Component: RescheduleBooking, preload: ready, loaded },
  Legal: { Component: Legal, preload: ready, loaded },
  NotFound: { Component: NotFound, preload: ready, loaded },
  CaseStudies: { Component: CaseStudies, preload: ready, loaded },
  CaseStudy: { Component: CaseStudy, preload: ready, loaded },
  Team: { Component: Team, preload: ready, loaded },
  Person: { Component: Person, preload: ready, loaded },
};
