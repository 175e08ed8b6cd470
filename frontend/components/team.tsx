import { localPath, type Lang } from "../lib/languages";

/** PersonData is a person of the team (internal/team.Person). */
export interface PersonData {
  slug: string;
  name: string;
  role: string;
  description: string;
  expertise: string[];
  html: string;
}

export function personPath(lang: Lang, slug: string): string {
  return localPath(lang, `/team/${slug}`);
}

/** Avatar is a person's initials in a circle: drawn, not photographed. */
export function Avatar({ name }: { name: string }) {
  const initials = name
    .split(" ")
    .map((w) => w[0])
    .join("");
  return (
    <span className="avatar" aria-hidden="true">
      {initials}
    </span>
  );
}
