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

/**
 * ExpertiseTags shows a person's fields as tags. Each is a box of its own,
 * so that in Arabic a run of Latin names ("Go", "PostgreSQL") keeps its
 * place in the list instead of taking the separators between them along.
 */
export function ExpertiseTags({ label, items }: { label: string; items: string[] }) {
  return (
    <ul className="expertise-tags" aria-label={label}>
      {items.map((e) => (
        <li key={e}>{e}</li>
      ))}
    </ul>
  );
}
