package store

import (
	"context"
	"database/sql"
)

// Scanner is one row to read: the current row of *sql.Rows, or a [Row].
type Scanner interface {
	Scan(dest ...any) error
}

// RowsQuerier runs a query that answers rows: a [Querier], or a bare
// *sql.DB (a backup's copy, the migrations' bookkeeping).
type RowsQuerier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// QueryEach runs query and calls each with every row of the answer, in
// order. The first error, the query's, one of each or the reading's, stops
// it and is returned as it is, for the caller to say what it was doing.
func QueryEach(ctx context.Context, q RowsQuerier, each func(Scanner) error, query string, args ...any) error {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := each(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

// QueryAll runs query and returns every row of the answer as scan reads
// it, in order: nil when there is none, and nothing but the error, as
// QueryEach returns it, when one stops it.
func QueryAll[T any](ctx context.Context, q RowsQuerier, scan func(Scanner) (T, error), query string, args ...any) ([]T, error) {
	var out []T
	err := QueryEach(ctx, q, func(row Scanner) error {
		v, err := scan(row)
		if err != nil {
			return err
		}
		out = append(out, v)
		return nil
	}, query, args...)
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Column reads a row of one column: QueryAll(ctx, q, Column[string], ...)
// lists names.
func Column[T any](row Scanner) (T, error) {
	var v T
	err := row.Scan(&v)
	return v, err
}

// NullIfZero is v as a query argument, NULL when v is its type's zero
// value: an optional reference or name that is absent.
func NullIfZero[T comparable](v T) any {
	var zero T
	if v == zero {
		return nil
	}
	return v
}
