package server

import (
	"stax/game/record"
)

// record returns the game's record in the text format of docs/records.md.
// The caller holds l.mu.
func (l *live) record() string {
	tags := []record.Tag{record.DateTag(l.created)}
	for i := range l.seats {
		st := &l.seats[i]
		who := "human"
		switch {
		case st.Kind == "ai":
			who = "stax:" + st.Level
		case st.Name != "":
			who = "human:" + st.Name
		}
		tags = append(tags, record.Tag{Name: record.SeatTag(i), Value: who})
	}
	tags = append(tags, record.Tag{Name: "Site", Value: "stax server, game " + l.id})
	r := record.FromHistory(l.h, tags...)
	r.Set(record.TagFinalPosition, l.h.State().String())
	return r.String()
}
