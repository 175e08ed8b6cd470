import { useEffect, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLocation } from "react-router-dom";
import site from "../../content/site.json";
import { ContactForm } from "../components/ContactForm";
import { StudyCards, Testimonials, type StudySummary, type Testimonial } from "../components/work";
import type { ContactFormState } from "../lib/contact";
import { useLocalPath } from "../lib/lang";
import { splitPath } from "../lib/languages";
import type { PageProps } from "./types";

/** serviceKeys maps each service's route slug to its strings. */
const serviceKeys = {
  "custom-software": "customSoftware",
  "platform-engineering": "platformEngineering",
  "strategic-consulting": "strategicConsulting",
} as const;
type ServiceSlug = keyof typeof serviceKeys;

const includeKeys = {
  customSoftware: ["discovery", "design", "build", "launch"],
  platformEngineering: ["infrastructure", "pipelines", "observability", "security"],
  strategicConsulting: ["review", "diligence", "roadmap", "hiring"],
} as const;

const reasons = ["senior", "transparent", "ownership", "delivery", "longTerm"] as const;

export default function Home({ payload }: PageProps) {
  const { t } = useTranslation();
  const to = useLocalPath();
  const { pathname } = useLocation();
  const { rest } = splitPath(pathname);
  const onServices = rest === "/services" || rest.startsWith("/services/");
  const highlighted = rest.startsWith("/services/") ? (rest.slice("/services/".length) as ServiceSlug) : null;

  // The /services routes show this page scrolled to the services; reached
  // by a link, the focus moves there too, to the service's heading.
  useEffect(() => {
    if (!onServices) return;
    const target = document.getElementById(highlighted ? `service-${highlighted}` : "services");
    target?.scrollIntoView({ block: "start" });
    if (document.documentElement.dataset.hydrated === "true") {
      target?.querySelector<HTMLElement>("h2, h3")?.focus({ preventScroll: true });
    }
  }, [onServices, highlighted]);

  const s = site.stats;
  const data = payload.data as { contact?: ContactFormState; work: StudySummary[]; testimonials: Testimonial[] };
  return (
    <div className="home">
      <section className="hero" aria-labelledby="hero-title">
        <div className="container">
          <p className="eyebrow">{t("home.hero.eyebrow")}</p>
          <h1 id="hero-title" tabIndex={-1}>
            {t("home.hero.title")}
          </h1>
          <p className="lead">{t("home.hero.lead")}</p>
          <div className="actions">
            <a className="button button-primary" href="#contact">
              {t("home.hero.start")}
            </a>
            <Link className="button button-secondary" to={to("/work")}>
              {t("home.hero.work")}
            </Link>
          </div>
        </div>
      </section>

      <section className="stats" aria-labelledby="stats-title">
        <div className="container">
          <h2 id="stats-title" className="visually-hidden">
            {t("home.stats.title")}
          </h2>
          <dl className="stats-grid">
            <div>
              <dt>{t("home.stats.projects", { count: s.projects })}</dt>
              <dd>
                <span dir="ltr">{s.projects}+</span>
              </dd>
            </div>
            <div>
              <dt>{t("home.stats.years", { count: s.years })}</dt>
              <dd>
                <span dir="ltr">{s.years}</span>
              </dd>
            </div>
            <div>
              <dt>{t("home.stats.satisfaction")}</dt>
              <dd>
                <span dir="ltr">{t("home.stats.percent", { value: s.satisfaction })}</span>
              </dd>
            </div>
            <div>
              <dt>{t("home.stats.response")}</dt>
              <dd>
                {t("home.stats.hours", { count: s.responseHours })}
              </dd>
            </div>
          </dl>
        </div>
      </section>

      <section id="services" className="services" aria-labelledby="services-title">
        <div className="container">
          <h2 id="services-title" tabIndex={-1}>
            {t("home.services.title")}
          </h2>
          <p className="section-lead">{t("home.services.lead")}</p>
          <ul className="service-grid card-grid">
            {(Object.keys(serviceKeys) as ServiceSlug[]).map((slug) => {
              const key = serviceKeys[slug];
              const title = t(`services.${key}.title`);
              return (
                <li
                  key={slug}
                  id={`service-${slug}`}
                  className="service-card card"
                  aria-current={highlighted === slug ? "true" : undefined}
                >
                  <h3 tabIndex={-1}>{title}</h3>
                  <p>{t(`services.${key}.summary`)}</p>
                  <h4>{t("home.services.includes")}</h4>
                  <ul className="checklist">
                    {includeKeys[key].map((item) => (
                      <li key={item}>{t(`services.${key}.includes.${item}`)}</li>
                    ))}
                  </ul>
                  <Link className="card-link" to={to(`/services/${slug}`)}>
                    {t("home.services.more", { service: title })}
                  </Link>
                </li>
              );
            })}
          </ul>
        </div>
      </section>

      <HomeSection name="work">
        <StudyCards lang={payload.lang} studies={data.work} headingLevel={3} />
        <p>
          <Link className="card-link" to={to("/work")}>
            {t("home.work.all")}
          </Link>
        </p>
      </HomeSection>

      <HomeSection name="why">
        <ul className="why-grid">
          {reasons.map((r) => (
            <li key={r}>
              <h3>{t(`home.why.${r}.title`)}</h3>
              <p>{t(`home.why.${r}.text`)}</p>
            </li>
          ))}
        </ul>
      </HomeSection>

      <Testimonials lang={payload.lang} items={data.testimonials} titleId="voices-title" />

      <section id="contact" className="contact" aria-labelledby="contact-title">
        <div className="container contact-grid">
          <div>
            <h2 id="contact-title">{t("home.contact.title")}</h2>
            <p className="section-lead">{t("home.contact.lead")}</p>
            <p>
              {t("home.contact.email")}{" "}
              <a href={`mailto:${site.email}`} dir="ltr">
                {site.email}
              </a>
            </p>
            <aside className="book-card" aria-labelledby="book-title">
              <h3 id="book-title">{t("home.contact.book")}</h3>
              <p>{t("home.contact.bookLead")}</p>
              <Link className="button button-secondary" to={to("/schedule")}>
                {t("home.contact.book")}
              </Link>
            </aside>
          </div>
          <ContactForm id="contact-form" initial={data.contact} />
        </div>
      </section>
    </div>
  );
}

/** HomeSection is the home page's section name: its title and lead (home.<name>.title and .lead), then children. */
function HomeSection({ name, children }: { name: "work" | "why"; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <section className={name} aria-labelledby={`${name}-title`}>
      <div className="container">
        <h2 id={`${name}-title`}>{t(`home.${name}.title`)}</h2>
        <p className="section-lead">{t(`home.${name}.lead`)}</p>
        {children}
      </div>
    </section>
  );
}
