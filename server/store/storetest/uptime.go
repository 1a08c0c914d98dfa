package storetest

import (
	"context"
	"reflect"
	"testing"

	"stax/server/store"
)

// testUptime checks the heartbeats and outages: each instance's last beat,
// an outage recorded once however many instances find it, and outages
// listed by when they end.
func testUptime(t *testing.T, open func() store.Store) {
	s := open()
	ctx := context.Background()
	if bs, err := s.Beats(ctx); err != nil || len(bs) != 0 {
		t.Fatalf("beats of a new store %v, %v; want none", bs, err)
	}
	check(t, "beat a", s.Beat(ctx, "a", at(1), false), nil)
	check(t, "beat b", s.Beat(ctx, "b", at(2), false), nil)
	check(t, "beat a again", s.Beat(ctx, "a", at(3), true), nil)
	bs, err := s.Beats(ctx)
	want := []store.Beat{{Instance: "a", At: at(3), Gone: true}, {Instance: "b", At: at(2)}}
	if err != nil || !reflect.DeepEqual(bs, want) {
		t.Fatalf("beats %+v, %v; want %+v", bs, err, want)
	}
	check(t, "forget", s.ForgetBeats(ctx, at(3)), nil)
	if bs, err := s.Beats(ctx); err != nil || len(bs) != 1 || bs[0].Instance != "a" {
		t.Fatalf("beats after forgetting the old ones %+v, %v; want a's", bs, err)
	}
	check(t, "outage", s.AddOutage(ctx, store.Outage{Start: at(10), End: at(20)}), nil)
	check(t, "the same outage found again", s.AddOutage(ctx, store.Outage{Start: at(10), End: at(21)}), nil)
	check(t, "a later outage", s.AddOutage(ctx, store.Outage{Start: at(30), End: at(31)}), nil)
	os, err := s.Outages(ctx, at(15))
	wantO := []store.Outage{{Start: at(10), End: at(20)}, {Start: at(30), End: at(31)}}
	if err != nil || !reflect.DeepEqual(os, wantO) {
		t.Fatalf("outages %+v, %v; want %+v", os, err, wantO)
	}
	if os, err := s.Outages(ctx, at(20)); err != nil || len(os) != 1 {
		t.Fatalf("outages ending after 20 s: %+v, %v; want the later one", os, err)
	}
}
