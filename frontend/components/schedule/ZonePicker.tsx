import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from "react";
import { useTranslation } from "react-i18next";
import { fold, matches, type Zone, type ZoneCatalog } from "./zones";

export interface ZonePickerProps {
  catalog: ZoneCatalog;
  /** value is the IANA name of the zone chosen. */
  value: string;
  /** detected is the zone of the visitor's device, listed first. */
  detected: string;
  onChange: (zone: string) => void;
}

/**
 * ZonePicker chooses a time zone among some 400, named in the page's
 * language: an editable combobox with a list (WAI-ARIA APG pattern). Typing
 * filters the list (city, country, the zone's name, in any accent or case);
 * the arrow keys move in it, Enter picks, Escape closes it and restores the
 * zone chosen. The device's zone comes first.
 */
export function ZonePicker({ catalog, value, detected, onChange }: ZonePickerProps) {
  const { t } = useTranslation();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const [open, setOpen] = useState(false);
  // null while the visitor is not typing: the field then shows the zone chosen.
  const [query, setQuery] = useState<string | null>(null);
  const [active, setActive] = useState(-1);
  const chosen = catalog.zone(value);
  const home = catalog.zone(detected);

  const options = useMemo(() => {
    if (!open) return [];
    const all = catalog.all();
    const q = fold(query ?? "");
    const rest = all.filter((z) => z.id !== home.id && (!q || matches(z, q)));
    return !q || matches(home, q) ? [home, ...rest] : rest;
  }, [open, query, catalog, home]);

  // The active option stays in view as the arrow keys move through a long list.
  useEffect(() => {
    if (active < 0) return;
    list.current?.querySelector(`#${CSS.escape(`${id}-option-${active}`)}`)?.scrollIntoView({ block: "nearest" });
  }, [active, id]);

  function close() {
    setOpen(false);
    setQuery(null);
    setActive(-1);
  }

  function choose(zone: Zone) {
    close();
    if (zone.id !== value) onChange(zone.id);
  }

  function onKeyDown(e: KeyboardEvent<HTMLInputElement>) {
    switch (e.key) {
      case "ArrowDown":
        e.preventDefault();
        if (!open || e.altKey) {
          setOpen(true);
          return;
        }
        setActive((i) => Math.min(i + 1, options.length - 1));
        return;
      case "ArrowUp":
        if (!open) return;
        e.preventDefault();
        setActive((i) => Math.max(i - 1, 0));
        return;
      case "Enter": {
        const zone = options[active];
        if (!open || !zone) return;
        e.preventDefault();
        choose(zone);
        return;
      }
      case "Escape":
        if (!open && query === null) return;
        e.preventDefault();
        close();
        // The zone chosen is back in the field, selected: typing searches again.
        requestAnimationFrame(() => input.current?.select());
        return;
    }
  }

  const listId = `${id}-list`;
  const activeOption = open && active >= 0 && active < options.length ? `${id}-option-${active}` : undefined;
  return (
    <div className="zone-field">
      <label htmlFor={`${id}-input`}>{t("schedule.time.zone")}</label>
      <div className="zone-combobox" data-open={open ? "true" : undefined}>
        <input
          ref={input}
          id={`${id}-input`}
          type="text"
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={open}
          aria-controls={listId}
          aria-activedescendant={activeOption}
          aria-describedby={`${id}-hint`}
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          value={query ?? chosen.label}
          // While the field shows the zone chosen, its text is selected, so that typing starts a search.
          onFocus={(e) => e.currentTarget.select()}
          onMouseUp={(e) => {
            // The mouse would place the caret in the zone's name: selected instead.
            if (query !== null) return;
            e.preventDefault();
            e.currentTarget.select();
          }}
          onClick={() => setOpen((o) => !o)}
          onChange={(e) => {
            setQuery(e.target.value);
            setOpen(true);
            setActive(-1);
          }}
          onKeyDown={onKeyDown}
          onBlur={close}
        />
        <span className="zone-chevron" aria-hidden="true" />
        {/* biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: the listbox of WAI-ARIA's combobox pattern; the field above keeps the focus and the keys */}
        <ul ref={list} id={listId} role="listbox" aria-label={t("schedule.time.zone")} className="zone-list" hidden={!open}>
          {options.map((z, i) => (
            // The options of WAI-ARIA's combobox pattern: the field keeps the focus (aria-activedescendant) and takes the keys (onKeyDown above).
            // biome-ignore lint/a11y/useFocusableInteractive: the field keeps the focus, as the pattern has it
            // biome-ignore lint/a11y/useKeyWithClickEvents: the field takes the keys, as the pattern has it
            <li
              key={z.id}
              id={`${id}-option-${i}`}
              // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: an option of the combobox's listbox
              role="option"
              aria-selected={z.id === value}
              data-active={i === active ? "true" : undefined}
              // The field keeps the focus while a pointer picks.
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => choose(z)}
            >
              <span className="zone-label">{z.label}</span>
              <span className="zone-place">
                {z.id === home.id ? t("schedule.time.zoneDetected") : z.country}
              </span>
            </li>
          ))}
        </ul>
        {open && options.length === 0 ? <p className="zone-empty">{t("schedule.time.zoneNone")}</p> : null}
      </div>
      <p className="visually-hidden" id={`${id}-hint`}>
        {t("schedule.time.zoneHint")}
      </p>
      <p className="visually-hidden" role="status">
        {open && query ? (options.length > 0 ? t("schedule.time.zoneResults", { count: options.length }) : t("schedule.time.zoneNone")) : ""}
      </p>
    </div>
  );
}
