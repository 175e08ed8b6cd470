import { localPath, type Lang } from "../lib/languages";
import type { PictureData } from "./picture";

/** PersonData is a person of the team (internal/team.Person). */
export interface PersonData {
  slug: string;
  name: string;
  role: string;
  description: string;
  expertise: string[];
  photo: PictureData;
  html: string;
}

export function personPath(lang: Lang, slug: string): string {
  return localPath(lang, `/team/${slug}`);
}
