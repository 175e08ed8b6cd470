package staff

import (
	"strings"
	"unicode"

	"github.com/northbeam/site/internal/store"
)

// Word search over the messages and the bookings (docs/ARCHITECTURE.md,
// Data): each word typed, cut where anything but a letter or a digit
// stands ("person4242@" is "person4242"), must begin a word of the row,
// accents aside. SQLite answers it from its FTS5 tables, PostgreSQL from
// the GIN indexes over search_fold of the same columns.

// searchWords returns the words of a search: runs of letters, digits and
// the marks that go with them.
func searchWords(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.IsMark(r)
	})
}

// allDigits reports whether every word is a number: a phone number typed
// with spaces ("+49 30 901820"), which a stored number holds as one word.
func allDigits(words []string) bool {
	for _, w := range words {
		for _, r := range w {
			if !unicode.IsDigit(r) {
				return false
			}
		}
	}
	return len(words) > 1
}

// wordSearch is how a list's query finds the rows of a search: from
// where (the table, or on SQLite the table joined to its FTS5 table), the
// condition and its arguments, and the id column it pages by. The matches
// come newest stored first, by id: SQLite's FTS5 gives its matches in that
// order, so a page is read without sorting every match of a common word
// (docs/ARCHITECTURE.md, Data).
type wordSearch struct {
	from, cond, id string
	args           []any
}

// newWordSearch returns the search of table (messages or bookings) for the
// words of search; ok is false when search holds no word.
func newWordSearch(b store.Backend, table, search string) (ws wordSearch, ok bool) {
	words := searchWords(search)
	if len(words) == 0 {
		return wordSearch{}, false
	}
	if b == store.Postgres {
		// The words go through search_fold as the indexed text did, then
		// each is a prefix: 'strasse:* & 12:*'.
		query := `to_tsquery('simple', regexp_replace(trim(search_fold(?)), '\s+', ':* & ', 'g') || ':*')`
		args := []any{strings.Join(words, " ")}
		if allDigits(words) {
			query = `(` + query + ` || to_tsquery('simple', search_fold(?) || ':*'))`
			args = append(args, strings.Join(words, ""))
		}
		return wordSearch{from: table, cond: searchVector[table] + ` @@ ` + query, id: "id", args: args}, true
	}
	terms := make([]string, len(words))
	for i, w := range words {
		terms[i] = `"` + w + `"*`
	}
	match := strings.Join(terms, " AND ")
	if allDigits(words) {
		match = `(` + match + `) OR "` + strings.Join(words, "") + `"*`
	}
	index := table + `_search`
	return wordSearch{
		from: index + ` JOIN ` + table + ` ON ` + table + `.id = ` + index + `.rowid`,
		cond: index + ` MATCH ?`, id: index + `.rowid`, args: []any{match},
	}, true
}

// qualified writes columns (a list of a table's columns) as table.column,
// for a query that joins the table to its FTS5 table, whose columns bear
// some of the same names.
func qualified(table, columns string) string {
	parts := strings.Split(columns, ",")
	for i, c := range parts {
		parts[i] = table + "." + strings.TrimSpace(c)
	}
	return strings.Join(parts, ", ")
}

// searchVector is, on PostgreSQL, the expression each table's search index
// holds (store's 0052_workspace_search), written the same way so that the
// planner uses it.
var searchVector = map[string]string{
	"messages": `to_tsvector('simple'::regconfig, search_fold(name || ' ' || email || ' ' || message))`,
	"bookings": `to_tsvector('simple'::regconfig, search_fold(name || ' ' || email || ' ' || company || ' ' || topic || ' ' || phone))`,
}
