import type { PageName } from "../pages/table";
import type { Lang } from "./languages";

/** ClientConfig is the server configuration the browser needs. */
export interface ClientConfig {
  consentHideFromBots: boolean;
  gaMeasurementId: string;
  /** consentCSS is the URL of the consent banner's stylesheet, linked when the banner starts. */
  consentCSS: string;
  /** strings is the URL the string groups' modules are under ("/assets/strings/<version>/"). */
  strings: string;
}

/** Payload is what the server knows of a page: it is serialized into the HTML and served by /api/page for client navigation. */
export interface Payload<Data = unknown> {
  path: string;
  lang: Lang;
  page: PageName;
  status: number;
  head: { title: string; description: string };
  alternates: Partial<Record<Lang, string>>;
  data: Data;
  /** year is the server's current year, for the copyright line (the same on server and client). */
  year: number;
  config: ClientConfig;
}

export const payloadElementId = "page-data";
