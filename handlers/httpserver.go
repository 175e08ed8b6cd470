package handlers

import (
	"net/http"
	"time"
)

// HTTPServer returns the http.Server the site runs h in: its timeouts bound
// how long a slow or idle client may hold a connection. The bench's floor
// runs a bare handler in the same server, beside one in net/http's
// defaults, so that their cost shows.
func HTTPServer(h http.Handler) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       15 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       120 * time.Second,
	}
}
