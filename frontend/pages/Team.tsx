import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { Picture } from "../components/picture";
import { ExpertiseTags, personPath, type PersonData } from "../components/team";
import type { PageProps } from "./types";

/** TeamData is the team page (handlers/team.go teamData). */
export interface TeamData {
  people: PersonData[];
}

/** Team introduces the people, each with their role, expertise and a link to their page. */
export default function Team({ payload }: PageProps) {
  const { t } = useTranslation();
  const data = payload.data as TeamData;
  return (
    <div className="container page-intro">
      <h1 tabIndex={-1}>{t("team.title")}</h1>
      <p className="lead">{t("team.lead")}</p>
      <ul className="study-grid card-grid">
        {data.people.map((p, i) => (
          <li key={p.slug} className="study-card person-card card">
            <Picture image={p.photo} sizes="6rem" lazy={i > 0} className="portrait" />
            <h2>{p.name}</h2>
            <p className="study-sector">{p.role}</p>
            <p>{p.description}</p>
            <ExpertiseTags label={t("team.expertise")} items={p.expertise} />
            <Link className="card-link" to={personPath(payload.lang, p.slug)}>
              {t("team.more", { name: p.name })}
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
