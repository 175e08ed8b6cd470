import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import { useTranslation } from "react-i18next";
import { useLang } from "../../lib/lang";
import { language } from "../../lib/languages";
import { addDays, type CivilDate, type Month } from "./dates";
import { addMonths, firstDayOfWeek, formatFullDay, formatMonth, monthDays, monthOf, weekday, weekdayNames } from "./time";

export interface CalendarProps {
  /** month is the month shown. */
  month: Month;
  onMonth: (m: Month) => void;
  /** first and last bound the bookable days (today and the horizon, in the visitor's zone). */
  first: CivilDate;
  last: CivilDate;
  today: CivilDate;
  selected: CivilDate | null;
  onSelect: (d: CivilDate) => void;
  /** hasSlots says whether a day has open times. */
  hasSlots: (d: CivilDate) => boolean;
  /** weekdaysShort are CLDR's short weekday names, Sunday first, for a narrow calendar. */
  weekdaysShort: string[];
}

/**
 * Calendar is the date picker: a month of day buttons, the days with open
 * times marked. One day is in the tab order (roving tabindex); the arrow
 * keys move between days (mirrored right to left), Page Up and Page Down
 * between months, Home and End to the ends of the week; Enter or Space
 * picks the day.
 */
export function Calendar({ month, onMonth, first, last, today, selected, onSelect, hasSlots, weekdaysShort }: CalendarProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const rtl = language(lang).dir === "rtl";
  const titleId = useId();
  const grid = useRef<HTMLTableElement>(null);
  const [focusDate, setFocusDate] = useState<CivilDate | null>(null);
  const moveFocus = useRef(false);

  const days = monthDays(month);
  const inRange = (d: CivilDate) => d >= first && d <= last;
  // A day without open times is disabled like a day out of range: nothing to pick there.
  const open = (d: CivilDate) => inRange(d) && hasSlots(d);
  // The day in the tab order: the one focused last, else the selected one, else the first open one.
  const tabbable =
    (focusDate && monthOf(focusDate) === month && open(focusDate) && focusDate) ||
    (selected && monthOf(selected) === month && open(selected) && selected) ||
    days.find(open) ||
    null;

  // biome-ignore lint/correctness/useExhaustiveDependencies(month): a key can move back to the day focused last, in another month: focusDate stays, the month changes, and the day is focused once its month renders
  useEffect(() => {
    if (!moveFocus.current || !focusDate) return;
    moveFocus.current = false;
    grid.current?.querySelector<HTMLButtonElement>(`button[data-date="${focusDate}"]`)?.focus();
  }, [focusDate, month]);

  /** go focuses to, or when it has no open times the nearest open day beyond it in the direction of travel (by one day, or by dir). */
  function go(to: CivilDate, from: CivilDate, dir: number) {
    const step = dir === 0 ? (to >= from ? 1 : -1) : dir;
    while (inRange(to) && !open(to)) to = addDays(to, step);
    if (!open(to)) {
      // Nothing open that way in steps of a week: the nearest open day, day by day.
      if (Math.abs(step) === 1) return;
      return go(addDays(to, -step), from, Math.sign(step));
    }
    moveFocus.current = true;
    setFocusDate(to);
    if (monthOf(to) !== month) onMonth(monthOf(to));
  }

  function onKeyDown(e: KeyboardEvent<HTMLButtonElement>, d: CivilDate) {
    const start = firstDayOfWeek(lang);
    const column = (weekday(d) - start + 7) % 7;
    // biome-ignore-start lint/correctness/noComponentHookFactories: keyed by KeyboardEvent.key ("ArrowLeft", "Home"): functions that compute a date, not components
    const step: Record<string, () => CivilDate> = {
      ArrowLeft: () => addDays(d, rtl ? 1 : -1),
      ArrowRight: () => addDays(d, rtl ? -1 : 1),
      ArrowUp: () => addDays(d, -7),
      ArrowDown: () => addDays(d, 7),
      Home: () => addDays(d, -column),
      End: () => addDays(d, 6 - column),
      PageUp: () => clampToMonth(d, addMonths(monthOf(d), -1)),
      PageDown: () => clampToMonth(d, addMonths(monthOf(d), 1)),
    };
    // biome-ignore-end lint/correctness/noComponentHookFactories: the step table ends here
    const target = step[e.key]?.();
    if (!target) return;
    e.preventDefault();
    // Up and down keep to the column while they can.
    const by = e.key === "ArrowUp" ? -7 : e.key === "ArrowDown" ? 7 : 0;
    go(target < first ? first : target > last ? last : target, d, by);
  }

  const names = weekdayNames(lang, weekdaysShort);
  const lead = (weekday(days[0]!) - firstDayOfWeek(lang) + 7) % 7;
  const cells: (CivilDate | null)[] = [...Array<null>(lead).fill(null), ...days];
  while (cells.length % 7 !== 0) cells.push(null);
  const weeks: (CivilDate | null)[][] = [];
  for (let i = 0; i < cells.length; i += 7) weeks.push(cells.slice(i, i + 7));

  const canBack = month > monthOf(first);
  const canForward = month < monthOf(last);
  return (
    // biome-ignore lint/a11y/useSemanticElements: a labelled group of a date grid and its month buttons, not a form's fieldset (whose legend and box the styles would have to undo)
    <div className="calendar" role="group" aria-label={t("schedule.calendar.label")}>
      <div className="calendar-head">
        <button
          type="button"
          className="icon-button calendar-prev"
          onClick={() => onMonth(addMonths(month, -1))}
          disabled={!canBack}
          aria-label={t("schedule.calendar.previous")}
        >
          <span aria-hidden="true" className="chevron" />
        </button>
        <h3 id={titleId} className="calendar-title" aria-live="polite">
          {formatMonth(lang, month)}
        </h3>
        <button
          type="button"
          className="icon-button calendar-next"
          onClick={() => onMonth(addMonths(month, 1))}
          disabled={!canForward}
          aria-label={t("schedule.calendar.next")}
        >
          <span aria-hidden="true" className="chevron" />
        </button>
      </div>
      <table ref={grid} className="calendar-grid" aria-labelledby={titleId}>
        <thead>
          <tr>
            {names.map((n) => (
              <th key={n.long} scope="col" abbr={n.long}>
                {/* A narrow calendar shows CLDR's short form (styles/schedule.css). */}
                <span className="weekday-abbreviated">{n.abbreviated}</span>
                <span className="weekday-short">{n.short}</span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {weeks.map((week, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a month's weeks are rows by position, and never reorder
            <tr key={i}>
              {week.map((d, j) =>
                d === null ? (
                  // biome-ignore lint/suspicious/noArrayIndexKey: an empty cell has no date; its column is all it is
                  <td key={j} />
                ) : (
                  <td key={d}>
                    <button
                      type="button"
                      className="day"
                      data-date={d}
                      data-open={inRange(d) && hasSlots(d) ? "true" : undefined}
                      disabled={!open(d)}
                      tabIndex={d === tabbable ? 0 : -1}
                      aria-pressed={d === selected}
                      aria-current={d === today ? "date" : undefined}
                      aria-label={`${formatFullDay(lang, d)}, ${t(
                        inRange(d) && hasSlots(d) ? "schedule.calendar.available" : "schedule.calendar.unavailable",
                      )}`}
                      onClick={() => {
                        setFocusDate(d);
                        onSelect(d);
                      }}
                      onKeyDown={(e) => onKeyDown(e, d)}
                    >
                      {Number(d.slice(8))}
                    </button>
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** clampToMonth returns the same day of the month in m, or m's last day when it is shorter. */
function clampToMonth(d: CivilDate, m: Month): CivilDate {
  const days = monthDays(m);
  const day = Number(d.slice(8));
  return days[Math.min(day, days.length) - 1]!;
}
