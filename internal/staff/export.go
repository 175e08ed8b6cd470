package staff

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/northbeam/site/internal/booking"
	"github.com/northbeam/site/internal/store"
)

// DateRange is a span of whole days in the consultancy's zone, both ends
// included, as exports take it.
type DateRange struct {
	From, To time.Time // midnight of the first day, midnight after the last, in the zone
}

// Name is the range as a file name part: 2026-01-01_2026-12-31.
func (r DateRange) Name() string {
	return r.From.Format(time.DateOnly) + "_" + r.To.AddDate(0, 0, -1).Format(time.DateOnly)
}

// maxRangeDays bounds an export's range: ten years is more than anything
// the retention setting keeps.
const maxRangeDays = 3700

// ErrRange refuses a date range: a date that is not YYYY-MM-DD, or an end
// before the start.
var ErrRange = errors.New("staff: the dates must be YYYY-MM-DD, the first no later than the last")

// ParseRange reads the from and to query parameters (YYYY-MM-DD, both
// optional). Without either, the range is the year behind today and the
// year ahead, so that the consultations booked for the coming days are in
// it; with to alone, from is a year before to.
func (w *Workspace) ParseRange(from, to string) (DateRange, error) {
	loc := w.cfg.Location
	today := w.cfg.Now().In(loc)
	midnight := time.Date(today.Year(), today.Month(), today.Day(), 0, 0, 0, 0, loc)
	end, start := midnight.AddDate(1, 0, 0), midnight.AddDate(-1, 0, 1)
	if to != "" {
		d, err := time.ParseInLocation(time.DateOnly, to, loc)
		if err != nil {
			return DateRange{}, ErrRange
		}
		end, start = d, d.AddDate(-1, 0, 1)
	}
	if from != "" {
		d, err := time.ParseInLocation(time.DateOnly, from, loc)
		if err != nil {
			return DateRange{}, ErrRange
		}
		start = d
	}
	end = end.AddDate(0, 0, 1)
	if !start.Before(end) || end.Sub(start) > maxRangeDays*24*time.Hour {
		return DateRange{}, ErrRange
	}
	return DateRange{From: start, To: end}, nil
}

// neutralize keeps a cell from being read as a formula by a spreadsheet
// (CSV injection): a cell whose first character, in its compatibility
// form (NFKC: full-width ＝ is =), is =, +, -, @, |, a tab or a carriage
// return gets a leading apostrophe, which spreadsheets show as text.
func neutralize(cell string) string {
	first, size := utf8.DecodeRuneInString(cell)
	if size == 0 {
		return cell
	}
	if first >= utf8.RuneSelf {
		first, _ = utf8.DecodeRuneInString(norm.NFKC.String(cell[:size]))
	}
	if strings.ContainsRune("=+-@|\t\r", first) {
		return "'" + cell
	}
	return cell
}

// csvWriter writes RFC 4180 CSV (CRLF line ends, quotes where needed) in
// UTF-8 after a byte order mark, which spreadsheets need to read accents
// and Arabic as such, every cell neutralized.
type csvWriter struct {
	w *csv.Writer
}

func newCSV(out io.Writer) (*csvWriter, error) {
	if _, err := io.WriteString(out, "\uFEFF"); err != nil {
		return nil, err
	}
	w := csv.NewWriter(out)
	w.UseCRLF = true
	return &csvWriter{w: w}, nil
}

func (c *csvWriter) row(cells ...string) error {
	for i := range cells {
		cells[i] = neutralize(cells[i])
	}
	return c.w.Write(cells)
}

func (c *csvWriter) flush() error {
	c.w.Flush()
	return c.w.Error()
}

// csvTime formats a time for a spreadsheet, in the consultancy's zone.
func (w *Workspace) csvTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.In(w.cfg.Location).Format("2006-01-02 15:04")
}

// phoneText writes a stored number (E.164) as people dial it; "" stays "".
func phoneText(e164 string) string {
	if e164 == "" {
		return ""
	}
	return booking.FormatPhone(e164)
}

// serviceLabel is a service's name in lang; an unknown key stays as it is.
func (w *Workspace) serviceLabel(lang, key string) string {
	if key == "" {
		return ""
	}
	text, ok := serviceTexts[key]
	if !ok {
		return key
	}
	return w.cfg.Texts.T(lang, text)
}

// serviceTexts are the locale keys of the services' names, the contact
// form's and the consultations'.
var serviceTexts = map[string]string{
	"custom-software":      "services.customSoftware",
	"platform-engineering": "services.platformEngineering",
	"strategic-consulting": "services.strategicConsulting",
	"not-sure":             "services.notSure",
	"discovery":            "services.discovery",
	"strategy":             "services.strategy",
}

// ExportMessages writes the messages received within r as CSV, oldest
// first, with column names in lang, and returns how many it wrote.
func (w *Workspace) ExportMessages(ctx context.Context, out io.Writer, r DateRange, lang string) (int, error) {
	t := w.exportTexts(lang)
	folders := map[string]string{
		FolderNew: t("messages.folders.new"), FolderHandled: t("messages.folders.handled"), FolderSpam: t("messages.folders.spam"),
	}
	columns := []string{"export.columns.reference", "export.columns.received", "export.columns.name", "export.columns.email",
		"export.columns.service", "export.columns.language", "export.columns.folder", "export.columns.handled", "export.columns.message"}
	return w.exportCSV(ctx, out, "messages", t, columns, func(row store.Scanner) ([]string, error) {
		m, err := scanMessage(row)
		if err != nil {
			return nil, err
		}
		return []string{m.Ref, w.csvTime(m.Received), m.Name, m.Email, w.serviceLabel(lang, m.Service), m.Lang,
			folders[m.Folder()], w.csvTime(m.Handled), m.Text}, nil
	}, `SELECT `+messageColumns+` FROM messages WHERE created_at >= ? AND created_at < ?
ORDER BY created_at, id`, store.Millis(r.From), store.Millis(r.To))
}

// ExportBookings writes the bookings whose meeting falls within r as CSV,
// soonest first, with column names in lang, and returns how many it wrote.
func (w *Workspace) ExportBookings(ctx context.Context, out io.Writer, r DateRange, lang string) (int, error) {
	t := w.exportTexts(lang)
	statuses := map[string]string{
		"upcoming": t("bookings.status.upcoming"), "ongoing": t("bookings.status.ongoing"),
		"past": t("bookings.status.past"), "cancelled": t("bookings.status.cancelled"), "noShow": t("bookings.status.noShow"),
	}
	now := w.cfg.Now()
	columns := []string{"export.columns.number", "export.columns.service", "export.columns.start", "export.columns.end",
		"export.columns.status", "export.columns.name", "export.columns.email", "export.columns.phone", "export.columns.company", "export.columns.topic",
		"export.columns.visitorZone", "export.columns.language", "export.columns.booked", "export.columns.cancelled", "export.columns.host"}
	return w.exportCSV(ctx, out, "bookings", t, columns, func(row store.Scanner) ([]string, error) {
		b, err := scanBooking(row)
		if err != nil {
			return nil, err
		}
		return []string{strconv.FormatInt(b.ID, 10), w.serviceLabel(lang, b.Service), w.csvTime(b.Start), w.csvTime(b.End),
			statuses[b.Status(now)], b.Name, b.Email, phoneText(b.Phone), b.Company, b.Topic, b.TimeZone, b.Lang,
			w.csvTime(b.Created), w.csvTime(b.Cancelled), w.HostName(lang, b.Host)}, nil
	}, `SELECT `+staffBookingColumns+` FROM bookings WHERE start_at >= ? AND start_at < ?
ORDER BY start_at, id`, store.Millis(r.From), store.Millis(r.To))
}

// exportTexts translates an export's texts into lang; {{zone}} is the
// consultancy's zone, which the times are in.
func (w *Workspace) exportTexts(lang string) func(key string) string {
	return func(key string) string { return w.cfg.Texts.T(lang, key, "zone", w.cfg.Location.String()) }
}

// exportCSV writes what query finds as CSV to out: a line of the columns'
// names (their locale keys translated with t), then the cells of each row
// as cells reads them; it returns how many rows it wrote. The query runs
// first, so that nothing is written when it fails; what names the rows in
// errors.
func (w *Workspace) exportCSV(ctx context.Context, out io.Writer, what string, t func(string) string, columns []string,
	cells func(store.Scanner) ([]string, error), query string, args ...any) (int, error) {
	rows, err := w.store.QueryContext(ctx, query, args...)
	if err != nil {
		return 0, fmt.Errorf("staff: export %s: %w", what, err)
	}
	defer rows.Close()
	c, err := newCSV(out)
	if err != nil {
		return 0, err
	}
	header := make([]string, len(columns))
	for i, key := range columns {
		header[i] = t(key)
	}
	if err := c.row(header...); err != nil {
		return 0, err
	}
	n := 0
	for rows.Next() {
		line, err := cells(rows)
		if err != nil {
			return n, fmt.Errorf("staff: export %s: %w", what, err)
		}
		if err := c.row(line...); err != nil {
			return n, err
		}
		n++
	}
	if err := rows.Err(); err != nil {
		return n, fmt.Errorf("staff: export %s: %w", what, err)
	}
	return n, c.flush()
}
