import { useId } from "react";
import { useTranslation } from "react-i18next";
import { useLang } from "../../lib/lang";
import type { Slot } from "./slots";
import { ContactLink } from "./Intro";
import type { CivilDate } from "./dates";
import { atNight, formatDay, formatTime, nightBounds } from "./time";

export interface TimesProps {
  date: CivilDate;
  slots: Slot[];
  zone: string;
  selected: string | null;
  onSelect: (slot: Slot) => void;
  /** next is the next day with open times after date, if any is known. */
  next: CivilDate | null;
  onNext: (d: CivilDate) => void;
}

/**
 * Times lists the open times of a day as a radio group: one tab stop, the
 * arrow keys move between times, Space picks one. A time in the visitor's
 * night (before 07:00 or after 21:00 on their clock) says so beside it. A
 * day without times offers the next day that has some, or the contact
 * section.
 */
export function Times({ date, slots, zone, selected, onSelect, next, onNext }: TimesProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const name = useId();
  const day = formatDay(lang, date);
  if (slots.length === 0) {
    return (
      <div className="times times-empty">
        <h3 className="times-title">{t("schedule.times.legend", { date: day })}</h3>
        {next ? (
          <>
            <p>{t("schedule.times.empty", { date: day })}</p>
            <button type="button" className="button button-secondary times-next" onClick={() => onNext(next)}>
              {t("schedule.times.next", { date: formatDay(lang, next) })}
            </button>
          </>
        ) : (
          <>
            <p>{t("schedule.times.none")}</p>
            <ContactLink className="button button-secondary" />
          </>
        )}
      </div>
    );
  }
  const night = slots.map((s) => atNight(s.start, zone));
  return (
    <fieldset className="times">
      <legend className="times-title">{t("schedule.times.legend", { date: day })}</legend>
      {night.some(Boolean) ? <p className="times-night-note">{t("schedule.times.nightNote", nightBounds(lang))}</p> : null}
      <ul className="time-grid">
        {slots.map((s, i) => (
          <li key={s.start}>
            <label className="time">
              <input
                type="radio"
                name={name}
                value={s.start}
                checked={selected === s.start}
                onChange={() => onSelect(s)}
              />
              <span className="time-face">
                <span className="time-clock">{formatTime(lang, s.start, zone)}</span>
                {night[i] ? (
                  <span className="time-night">
                    <span className="moon" aria-hidden="true" /> {t("schedule.times.night")}
                  </span>
                ) : null}
              </span>
            </label>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}
