package account

import (
	"strings"
	"testing"
)

func TestCleanName(t *testing.T) {
	for _, tt := range []struct {
		in, want string
		bad      string // a part of the error, "" for none
	}{
		{"alice", "alice", ""},
		{"  bob  ", "bob", ""},
		{"Zoë", "Zoë", ""},
		{"Zoe\u0308", "Zoë", ""}, // decomposed: normalised to NFC
		{"Jean\u00a0\u3000Paul", "Jean Paul", ""},
		{"李小龍", "李小龍", ""},
		{"", "", ""},
		{"al\u202eice", "", "U+202E"},   // right-to-left override
		{"al\u200bice", "", "U+200B"},   // zero-width space
		{"al\u2066ice", "", "U+2066"},   // bidi isolate
		{"a\x00b", "", "U+0000"},        // NUL
		{"a\nb", "", "U+000A"},          // newline
		{"a\u2028b", "", "U+2028"},      // line separator
		{"a\ue000b", "", "U+E000"},      // private use
		{"a\U000e0041b", "", "U+E0041"}, // tag character
		{"a\xffb", "", "UTF-8"},
		{strings.Repeat("é", 41), "", "at most 40"},
		{strings.Repeat("e\u0301", 40), strings.Repeat("é", 40), ""}, // 80 code points, 40 after NFC
		{"computer (strongest)", "", "reserved"},
		{"Computer", "", "reserved"},
		{"the c o m p u t e r", "", "reserved"},
		{"cоmputer", "", "reserved"}, // Cyrillic o
		{"c0mpüter", "", "reserved"}, // digit 0, umlaut
		{"ｃｏｍｐｕｔｅｒ", "", "reserved"}, // full-width
		{"stax:hard", "", "reserved"},
		{"AI", "", "reserved"},
		{"bot", "", "reserved"},
		{"Aida", "Aida", ""},
		{"robot", "robot", ""},
	} {
		got, err := CleanName(tt.in)
		switch {
		case tt.bad == "" && (err != nil || got != tt.want):
			t.Errorf("cleanName(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		case tt.bad != "" && (err == nil || !strings.Contains(err.Error(), tt.bad)):
			t.Errorf("cleanName(%q) = %q, %v; want an error about %q", tt.in, got, err, tt.bad)
		}
	}
}

func FuzzCleanName(f *testing.F) {
	for _, s := range []string{"alice", "Zoe\u0308", "computer", "a\u202eb", " x "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		name, err := CleanName(in)
		if err != nil {
			return
		}
		again, err := CleanName(name)
		if err != nil || again != name {
			t.Fatalf("cleanName(%q) = %q, but cleaning that gives %q, %v", in, name, again, err)
		}
	})
}
