package store

// Hooks for the external tests (package store_test), which use storetest
// and so cannot live in this package.
var (
	OpenSQLiteWithSteps  = openSQLite
	NewPostgresWithSteps = newPostgres
	CheckSteps           = checkSteps
	Rebind               = rebind
)
