package intl

import (
	"io/fs"
	"path"
	"slices"
	"strings"
	"time"
)

// Time zones named as people name them, in each language, from CLDR: the
// zone's city ("Tokyo", "طوكيو") and its generic name ("heure du Japon"),
// the way the booking page names them ("Tokyo (heure du Japon)"), so that
// the mails, the consultancy's notices and the workspace say what the page
// said, never "Asia/Tokyo".
const (
	metaZonesFile  = "cldr-core/supplemental/metaZones.json"
	bcp47ZonesFile = "cldr-bcp47/bcp47/timezone.json"
)

func (s source) zoneNamesFile() string { return path.Join(datesDir, s.locale, "timeZoneNames.json") }

// zoneData is what the languages share: which names are one zone, and the
// metazones ("Europe_Central") a zone has belonged to, and when.
type zoneData struct {
	aliases map[string][]string // any IANA name: every name of its zone, CLDR's first
	current map[string]string   // any IANA name: its zone's current one
	uses    map[string][]metazoneUse
}

type metazoneUse struct {
	zone     string
	from, to time.Time // zero: unbounded
}

// zoneNames is one language's names: exemplar cities by CLDR's zone name,
// generic and standard names by metazone, and UTC's.
type zoneNames struct {
	cities   map[string]string
	generic  map[string]string
	standard map[string]string
	utc      string
}

type bcp47File struct {
	Keyword struct {
		U struct {
			TZ map[string]any `json:"tz"`
		} `json:"u"`
	} `json:"keyword"`
}

type metaZonesJSON struct {
	Supplemental struct {
		MetaZones struct {
			MetazoneInfo struct {
				Timezone map[string]any `json:"timezone"`
			} `json:"metazoneInfo"`
		} `json:"metaZones"`
	} `json:"supplemental"`
}

type zoneNamesJSON struct {
	Main map[string]struct {
		Dates struct {
			TimeZoneNames struct {
				Zone     map[string]any `json:"zone"`
				Metazone map[string]struct {
					Long struct {
						Generic  string `json:"generic"`
						Standard string `json:"standard"`
					} `json:"long"`
				} `json:"metazone"`
			} `json:"timeZoneNames"`
		} `json:"dates"`
	} `json:"main"`
}

// cldrTime is the form of metaZones.json's _from and _to, in UTC.
const cldrTime = "2006-01-02 15:04"

func loadZoneData(cldr fs.FS) (*zoneData, error) {
	var b bcp47File
	if err := readJSON(cldr, bcp47ZonesFile, &b); err != nil {
		return nil, err
	}
	d := &zoneData{aliases: map[string][]string{}, current: map[string]string{}, uses: map[string][]metazoneUse{}}
	for _, v := range b.Keyword.U.TZ {
		z, ok := v.(map[string]any)
		if !ok {
			continue
		}
		alias, _ := z["_alias"].(string)
		names := strings.Fields(alias)
		if len(names) == 0 {
			continue
		}
		iana, _ := z["_iana"].(string)
		if iana == "" {
			iana = names[0]
		} else if !slices.Contains(names, iana) {
			names = append(names, iana)
		}
		for _, n := range names {
			d.aliases[n] = names
			d.current[n] = iana
		}
	}
	var m metaZonesJSON
	if err := readJSON(cldr, metaZonesFile, &m); err != nil {
		return nil, err
	}
	walkZones(m.Supplemental.MetaZones.MetazoneInfo.Timezone, "", func(name string, v any) bool {
		list, ok := v.([]any)
		if !ok {
			return false
		}
		for _, item := range list {
			u, _ := item.(map[string]any)["usesMetazone"].(map[string]any)
			mz, _ := u["_mzone"].(string)
			use := metazoneUse{zone: mz}
			if s, ok := u["_from"].(string); ok {
				use.from, _ = time.Parse(cldrTime, s)
			}
			if s, ok := u["_to"].(string); ok {
				use.to, _ = time.Parse(cldrTime, s)
			}
			d.uses[name] = append(d.uses[name], use)
		}
		return true
	})
	return d, nil
}

func loadZoneNames(cldr fs.FS, src source) (*zoneNames, error) {
	var f zoneNamesJSON
	if err := readJSON(cldr, src.zoneNamesFile(), &f); err != nil {
		return nil, err
	}
	n := &zoneNames{cities: map[string]string{}, generic: map[string]string{}, standard: map[string]string{}}
	for _, m := range f.Main {
		walkZones(m.Dates.TimeZoneNames.Zone, "", func(name string, v any) bool {
			z, ok := v.(map[string]any)
			if !ok || z["_type"] != "zone" {
				return false
			}
			if city, ok := z["exemplarCity"].(string); ok {
				n.cities[name] = city
			}
			if name == "Etc/UTC" {
				if long, ok := z["long"].(map[string]any); ok {
					n.utc, _ = long["standard"].(string)
				}
			}
			return true
		})
		for mz, names := range m.Dates.TimeZoneNames.Metazone {
			if g := names.Long.Generic; g != "" {
				n.generic[mz] = g
			} else if s := names.Long.Standard; s != "" {
				n.generic[mz] = s
			}
			if s := names.Long.Standard; s != "" {
				n.standard[mz] = s
			}
		}
	}
	return n, nil
}

// dstCheckRange is how far around a time ICU looks for daylight saving
// time before it names a zone by its standard name (kDstCheckRange).
const dstCheckRange = 184 * 24 * time.Hour

// daylightAround reports whether zone observes daylight saving time at,
// or in the period just before or after it when the change between them is
// within dstCheckRange of at: ICU's rule for a generic name, which
// otherwise is the standard one. A zone Go cannot load counts as observing
// it (the generic name is kept).
func daylightAround(zone string, at time.Time) bool {
	loc, err := time.LoadLocation(zone)
	if err != nil {
		return true
	}
	t := at.In(loc)
	if t.IsDST() {
		return true
	}
	start, end := t.ZoneBounds()
	if !start.IsZero() && at.Sub(start) < dstCheckRange && start.Add(-time.Nanosecond).In(loc).IsDST() {
		return true
	}
	return !end.IsZero() && end.Sub(at) < dstCheckRange && end.In(loc).IsDST()
}

// walkZones calls leaf with each zone of a tree keyed by the parts of its
// name (Asia → Tokyo); leaf says whether v was a zone rather than a branch.
func walkZones(tree map[string]any, prefix string, leaf func(name string, v any) bool) {
	for k, v := range tree {
		name := k
		if prefix != "" {
			name = prefix + "/" + k
		}
		if leaf(name, v) {
			continue
		}
		if sub, ok := v.(map[string]any); ok {
			walkZones(sub, name, leaf)
		}
	}
}

// ZoneName names the IANA zone zone in lang as the booking page does: its
// city and, when the zone has one, its generic name at the time at
// ("Tokyo (heure du Japon)", "برلين (توقيت وسط أوروبا)"); UTC is "UTC" and
// its long name. A zone CLDR does not know keeps its IANA name.
func (f *Formatter) ZoneName(lang, zone string, at time.Time) string {
	c := f.calendarOf(lang)
	if c == nil || c.zones == nil || f.zoneData == nil {
		return zone
	}
	names, ok := f.zoneData.aliases[zone]
	if !ok {
		return zone
	}
	if slices.Contains(names, "Etc/UTC") || slices.Contains(names, "UTC") {
		if c.zones.utc != "" {
			return "UTC (" + c.zones.utc + ")"
		}
		return "UTC"
	}
	city := ""
	for _, n := range names {
		if city = c.zones.cities[n]; city != "" {
			break
		}
	}
	if city == "" { // CLDR's rule: the last part of the current name
		cur := f.zoneData.current[zone]
		city = strings.ReplaceAll(cur[strings.LastIndexByte(cur, '/')+1:], "_", " ")
	}
	generic := ""
	for _, n := range names {
		for _, u := range f.zoneData.uses[n] {
			if (u.from.IsZero() || !at.Before(u.from)) && (u.to.IsZero() || at.Before(u.to)) {
				generic = c.zones.generic[u.zone]
				// A zone that keeps standard time around at is named by its
				// standard name ("Japan Standard Time"), as the browsers'
				// ICU names it on the booking page.
				if s := c.zones.standard[u.zone]; s != "" && !daylightAround(zone, at) {
					generic = s
				}
			}
		}
		if generic != "" {
			break
		}
	}
	if generic == "" || generic == city {
		return city
	}
	return city + " (" + generic + ")"
}
