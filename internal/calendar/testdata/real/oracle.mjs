// The oracle of TestRealFeedsMatchTheOracle: the busy time of each real
// feed of this folder over a window, worked out by ical.js (the library of
// Thunderbird) rather than by the Go code. It is run by hand, outside the
// repository, and its output committed as oracle.txt:
//
//   mkdir /tmp/oracle && cd /tmp/oracle && npm install --save-exact ical.js@2.2.1
//   node <this folder>/oracle.mjs <this folder> > <this folder>/oracle.txt
//
// What ical.js leaves to its caller is done here, on its own terms: a zone
// the feed does not define (an IANA name) and floating times go through
// the JavaScript engine's own zone database (Intl, ICU), whole days and
// floating times in the consultancy's zone (Europe/Berlin, as the test);
// an RDATE period (which ical.js 2.2.1 hands over as a Period and
// expands no further) blocks its own span; TRANSP:TRANSPARENT and
// STATUS:CANCELLED take no time; intervals that overlap or touch merge.
// ical.js refuses a whole document for one malformed line: the events it
// cannot read alone are left out, as the site skips them.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const require = createRequire(join(process.cwd(), 'package.json'));
const ICAL = require('ical.js');

const HOME = 'Europe/Berlin';
const dir = process.argv[2];

// [file, window start, window end]: each feed over its own dates.
const cases = [
  ['node-ical_ms_timezones.ics', '2020-06-01T00:00:00Z', '2021-04-01T00:00:00Z'],
  ['node-ical_exchange_whole_day_moved_recurrence.ics', '2026-02-01T00:00:00Z', '2026-09-01T00:00:00Z'],
  ['node-ical_non-utc-until-ny.ics', '2024-02-25T00:00:00Z', '2024-03-20T00:00:00Z'],
  ['icaljs_recur_instances.ics', '2012-09-01T00:00:00Z', '2013-07-01T00:00:00Z'],
  ['icaljs_recur_instances.ics', '2023-11-01T00:00:00Z', '2024-01-01T00:00:00Z'],
  ['icaljs_rdate_exdate.ics', '2024-06-01T00:00:00Z', '2024-06-20T00:00:00Z'],
  ['icaljs_google_birthday.ics', '2012-01-01T00:00:00Z', '2015-01-01T00:00:00Z'],
  ['ccs-calendarserver_put_7.ics', '2006-01-01T00:00:00Z', '2006-01-10T00:00:00Z'],
  ['ical4j_Standup.ics', '2009-03-28T00:00:00Z', '2009-04-11T00:00:00Z'],
];

// offsetAt returns the offset of zone at the instant ms, in milliseconds.
function offsetAt(ms, zone) {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric',
    hour: 'numeric', minute: 'numeric', second: 'numeric',
  }).formatToParts(new Date(ms));
  const get = (type) => Number(parts.find((p) => p.type === type).value);
  return Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second')) - ms;
}

// instant returns the epoch milliseconds of an ICAL.Time.
function instant(t, tzid) {
  if (t.toString().endsWith('Z') || (t.zone?.tzid && t.zone.tzid !== 'floating')) {
    return t.toUnixTime() * 1000;
  }
  const zone = !t.isDate && tzid ? tzid : HOME;
  const wall = Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second);
  const first = wall - offsetAt(wall, zone);
  return wall - offsetAt(first, zone);
}

function tzidOf(component, name) {
  const prop = component.getFirstProperty(name);
  return prop ? prop.getParameter('tzid') : undefined;
}

function busyItem(component) {
  const transp = String(component.getFirstPropertyValue('transp') || '').toUpperCase();
  const status = String(component.getFirstPropertyValue('status') || '').toUpperCase();
  return transp !== 'TRANSPARENT' && status !== 'CANCELLED';
}

// readable returns text without the VEVENTs ical.js cannot read alone.
function readable(text) {
  try {
    ICAL.parse(text);
    return text;
  } catch {
    return text.replace(/BEGIN:VEVENT\r?\n[\s\S]*?END:VEVENT\r?\n/g, (block) => {
      try {
        ICAL.parse(`BEGIN:VCALENDAR\r\n${block}END:VCALENDAR\r\n`);
        return block;
      } catch {
        return '';
      }
    });
  }
}

function busyOf(text, from, to) {
  const root = new ICAL.Component(ICAL.parse(readable(text)));
  for (const vtz of root.getAllSubcomponents('vtimezone')) {
    if (vtz.getFirstPropertyValue('tzid')) {
      ICAL.TimezoneService.register(vtz);
    }
  }
  const events = root.getAllSubcomponents('vevent');
  const masters = events.filter((e) => !e.hasProperty('recurrence-id'));
  const out = [];
  const add = (component, start, end) => {
    if (busyItem(component) && end > start && start < to && end > from) {
      out.push([start, end]);
    }
  };
  const timesOf = (component) => ({ start: tzidOf(component, 'dtstart'), end: tzidOf(component, 'dtend') || tzidOf(component, 'dtstart') });
  for (const e of events) {
    const uid = e.getFirstPropertyValue('uid');
    if (e.hasProperty('recurrence-id') && !masters.some((m) => m.getFirstPropertyValue('uid') === uid)) {
      // An override without its series stands alone.
      const ev = new ICAL.Event(e);
      const z = timesOf(e);
      add(e, instant(ev.startDate, z.start), instant(ev.endDate, z.end));
    }
  }
  for (const m of masters) {
    const uid = m.getFirstPropertyValue('uid');
    const exceptions = events.filter((e) => e.hasProperty('recurrence-id') && e.getFirstPropertyValue('uid') === uid);
    const ev = new ICAL.Event(m, { exceptions });
    const z = timesOf(m);
    if (!ev.isRecurring()) {
      add(m, instant(ev.startDate, z.start), instant(ev.endDate, z.end));
      continue;
    }
    const excluded = m.getAllProperties('exdate').flatMap((prop) => prop.getValues().map((t) => instant(t, prop.getParameter('tzid'))));
    const periods = new Map();
    for (const prop of m.getAllProperties('rdate')) {
      if (prop.type === 'period') {
        for (const p of prop.getValues()) {
          const tzid = prop.getParameter('tzid');
          const start = instant(p.start, tzid);
          periods.set(start, instant(p.getEnd(), tzid));
          if (!excluded.includes(start)) {
            add(m, start, periods.get(start));
          }
        }
      }
    }
    const it = ev.iterator();
    for (let next = it.next(); next; next = it.next()) {
      if (next instanceof ICAL.Period) {
        continue; // blocks its own span, above
      }
      if (instant(next, z.start) > to + 86400000 * 2) {
        break;
      }
      const d = ev.getOccurrenceDetails(next);
      const item = d.item.component;
      const itemZ = timesOf(item);
      const start = instant(d.startDate, itemZ.start);
      if (item !== m || !periods.has(start)) {
        add(item, start, instant(d.endDate, itemZ.end));
      }
    }
  }
  out.sort((a, b) => a[0] - b[0]);
  const merged = [];
  for (const iv of out) {
    const last = merged[merged.length - 1];
    if (last && iv[0] <= last[1]) {
      last[1] = Math.max(last[1], iv[1]);
    } else {
      merged.push([...iv]);
    }
  }
  return merged;
}

const iso = (ms) => new Date(ms).toISOString().replace('.000Z', 'Z');
const lines = ['# busy intervals by ical.js 2.2.1 (see oracle.mjs): a window line, then start and end in UTC'];
for (const [file, from, to] of cases) {
  lines.push(`window ${file} ${from} ${to}`);
  for (const [s, e] of busyOf(readFileSync(join(dir, file), 'utf8'), Date.parse(from), Date.parse(to))) {
    lines.push(`${iso(s)} ${iso(e)}`);
  }
}
console.log(lines.join('\n'));
