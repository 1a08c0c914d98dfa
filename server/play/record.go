package play

import (
	"stax/game/record"
)

// record returns the game's record in the text format of docs/records.md.
// The caller holds l.mu.
func (l *room) record() string {
	tags := []record.Tag{record.DateTag(l.created)}
	for i := range l.seats {
		st := &l.seats[i]
		who := record.Seat{Kind: record.Human, Name: st.Name}
		if st.Kind == "ai" {
			who = record.Seat{Kind: record.Level, Name: st.Level}
		}
		tags = append(tags, who.Tag(i))
	}
	tags = append(tags, record.Tag{Name: "Site", Value: "stax server, game " + l.id})
	r := record.FromHistory(l.h, tags...)
	r.Set(record.TagFinalPosition, l.h.State().String())
	return r.String()
}
