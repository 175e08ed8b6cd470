package e2etest

// ClientFormats writes, in the browser, what the client's own formatting
// shows in every language: the booking flow's dates, times, week and zone
// names (with the CLDR data it loads), and the staff workspace's dates.
const ClientFormats = `
import { languages } from "./lib/languages";
import { loadCldr } from "./components/schedule/cldr";
import { zoneCatalog } from "./components/schedule/zones";
import * as t from "./components/schedule/time";
import * as staff from "./staff/format";

const instants = ["2026-11-20T14:30:00Z", "2026-03-01T08:05:00Z", "2026-05-03T23:00:00Z", "2026-08-12T11:00:00Z"];
const zones = ["America/New_York", "Europe/Berlin", "Asia/Kolkata", "Africa/Cairo", "America/St_Johns", "Europe/London", "Etc/UTC"];

(window as unknown as { golden: () => Promise<string> }).golden = async () => {
  const out: string[] = [];
  for (const { code: lang } of languages) {
    const line = (what: string, value: unknown) => out.push(lang + "\t" + what + "\t" + JSON.stringify(value));
    line("locale", t.localeOf(lang));
    line("first day of the week", t.firstDayOfWeek(lang));
    line("night", t.nightBounds(lang));
    for (const at of instants) {
      line("time " + at, t.formatTime(lang, at, "Europe/Berlin"));
      line("date and time " + at, t.formatDateTime(lang, at, "Pacific/Auckland"));
      line("staff date and time " + at, staff.dateTime(lang, at, "Europe/Berlin"));
      line("staff time " + at, staff.time(lang, at, "America/New_York"));
    }
    for (const d of ["2026-11-20", "2026-03-01"]) {
      line("day " + d, t.formatDay(lang, d));
      line("full day " + d, t.formatFullDay(lang, d));
      line("month " + d, t.formatMonth(lang, t.monthOf(d)));
      line("staff day " + d, staff.day(lang, d));
    }
    const cldr = await loadCldr(lang);
    line("weekdays", t.weekdayNames(lang, cldr.weekdaysShort));
    const catalog = zoneCatalog(cldr);
    line("zones", catalog.all().length);
    for (const z of zones) line("zone " + z, catalog.zone(z).label);
  }
  return out.join("\n") + "\n";
};
`
