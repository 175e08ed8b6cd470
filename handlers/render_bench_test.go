package handlers

import (
	"context"
	"encoding/json"
	"testing"
)

// BenchmarkRender measures one goja render of each page type (the cost of
// a render before caching), in English and Arabic.
func BenchmarkRender(b *testing.B) {
	s := testSite(b)
	for _, lang := range []string{"en", "ar"} {
		l, _ := s.Info.Language(lang)
		for _, p := range s.staticPages(l) {
			if p.path != l.LocalPath("/") && p.path != l.LocalPath("/privacy") && p.path != l.LocalPath("/schedule") {
				continue
			}
			payload, err := json.Marshal(s.payload(p))
			if err != nil {
				b.Fatal(err)
			}
			b.Run(p.component+"/"+lang, func(b *testing.B) {
				for b.Loop() {
					if _, err := s.Engine.Render(context.Background(), payload); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
