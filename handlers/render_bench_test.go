package handlers

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/northbeam/site/internal/sitetest"
)

// BenchmarkRender measures one goja render of each page type (the cost of
// a render before caching), in English and Arabic.
func BenchmarkRender(b *testing.B) {
	s := sitetest.Site(b)
	for _, lang := range []string{"en", "ar"} {
		l, _ := s.Info.Language(lang)
		for _, path := range []string{"/", "/schedule", "/privacy"} {
			r, ok := s.Payload(l.LocalPath(path))
			if !ok {
				b.Fatalf("no page at %s", l.LocalPath(path))
			}
			var payload struct {
				Page string `json:"page"`
			}
			pj := r.Bytes()
			if err := json.Unmarshal(pj, &payload); err != nil {
				b.Fatal(err)
			}
			b.Run(payload.Page+"/"+lang, func(b *testing.B) {
				for b.Loop() {
					if _, err := s.Engine.Render(context.Background(), pj); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
