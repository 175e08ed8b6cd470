// Server: every page of the table is imported eagerly, so the server always
// renders the whole page inside a completed Suspense boundary. Chosen by the
// "server" condition of package.json's "#pages" import (see
// esbuild.config.mjs).
import eagerPages from "virtual:pages/eager";
import type { PageMap } from "./types";

const ready = () => Promise.resolve();
const loaded = () => true;

export const pages: PageMap = eagerPages((Component) => ({ Component, preload: ready, loaded }));
