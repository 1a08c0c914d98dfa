package server

import "testing"

func TestPageLanguage(t *testing.T) {
	for _, tt := range []struct{ header, want string }{
		{"", "en"},
		{"fr", "fr"},
		{"fr-FR,fr;q=0.9,en;q=0.8", "fr"},
		{"es-ES,es;q=0.9", "es"},
		{"de-DE,de;q=0.9,es;q=0.5,fr;q=0.4", "es"},
		{"en-GB,en;q=0.9,fr;q=0.8", "en"},
		{"de", "en"},
		{"fr;q=0.2,es;q=0.7", "es"},
		{"fr;q=bad,es;q=0.1", "es"},
	} {
		if got := pageLanguage(tt.header); got != tt.want {
			t.Errorf("pageLanguage(%q) = %q, want %q", tt.header, got, tt.want)
		}
	}
}
