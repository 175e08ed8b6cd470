package e2etest

import (
	"github.com/chromedp/cdproto/fetch"
)

func FetchRequestID(id string) fetch.RequestID { return fetch.RequestID(id) }
