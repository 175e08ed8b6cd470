package calendar_test

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/northbeam/site/internal/calendar"
	"github.com/northbeam/site/internal/logtest"
	"github.com/northbeam/site/internal/store"
	"github.com/northbeam/site/internal/store/storetest"
)

// TestMemberFeedReadAtOnce: a member's feed is read as it is added
// (ReadMemberFeed), with no Refresh: its busy time is the member's at
// once on that instance, and another instance on the same database counts
// it from the copy stored, at its next sync of the members' feeds, without
// fetching it; removed, it stops counting there too. A feed that cannot be
// read says so, and the log never holds its address.
func TestMemberFeedReadAtOnce(t *testing.T) {
	data, err := os.ReadFile("testdata/fortnight.ics")
	if err != nil {
		t.Fatal(err)
	}
	berlin, _ := time.LoadLocation("Europe/Berlin")
	window := calendar.Interval{Start: time.Date(2027, 3, 22, 0, 0, 0, 0, berlin), End: time.Date(2027, 4, 5, 0, 0, 0, 0, berlin)}
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		feed := newFeedServer(t, data)
		logs := &logtest.Buffer{}
		now := time.Date(2027, 3, 20, 12, 0, 0, 0, berlin)
		instance := func() *calendar.Source {
			src, err := calendar.NewSource(calendar.Config{Home: berlin, Store: st, Members: true, Logger: logs.Logger(),
				Now: func() time.Time { return now }})
			if err != nil {
				t.Fatal(err)
			}
			if err := src.Load(ctx); err != nil {
				t.Fatal(err)
			}
			return src
		}
		here, there := instance(), instance()
		var staffID int64
		if err := st.QueryRowContext(ctx, `INSERT INTO staff (email, handle, lang, created_at) VALUES ('Ana@Example.com', 'h-ana', 'en', 1) RETURNING id`).Scan(&staffID); err != nil {
			t.Fatal(err)
		}
		owner := calendar.Owner("ana@example.com")

		f, err := calendar.AddMemberFeed(ctx, st, staffID, feed.URL+secretPath, now)
		if err != nil {
			t.Fatal(err)
		}
		if !here.ReadMemberFeed(ctx, f.ID) {
			t.Fatal("a feed that answers was not read as it was added")
		}
		if len(here.BusyOf(owner, window)) == 0 {
			t.Fatal("the feed read as it was added does not count for its member")
		}
		fetched := feed.full.Load()
		there.MembersChanged(ctx)
		if len(there.BusyOf(owner, window)) == 0 {
			t.Error("the other instance does not count the feed from its stored copy")
		}
		if feed.full.Load() != fetched {
			t.Error("the other instance fetched the feed again rather than take the stored copy")
		}

		if removed, err := calendar.RemoveMemberFeed(ctx, st, staffID, f.ID); err != nil || !removed {
			t.Fatalf("removing: %v %v", removed, err)
		}
		here.MembersChanged(ctx)
		there.MembersChanged(ctx)
		if len(here.BusyOf(owner, window)) != 0 || len(there.BusyOf(owner, window)) != 0 {
			t.Error("a removed feed still counts")
		}

		feed.set("missing")
		gone, err := calendar.AddMemberFeed(ctx, st, staffID, feed.URL+secretPath+"?v=2", now)
		if err != nil {
			t.Fatal(err)
		}
		if here.ReadMemberFeed(ctx, gone.ID) {
			t.Error("a feed that answers 404 was reported read")
		}
		if strings.Contains(logs.String(), "private-9f8e7d6c5b4a") {
			t.Errorf("the log holds a feed's address:\n%s", logs.String())
		}
	})
}
