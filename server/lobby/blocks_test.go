package lobby_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"stax/games"
	"stax/server/httpx"
	"stax/server/httpx/httpxtest"
	"stax/server/lobby"
	"stax/server/store"
	"stax/server/store/sqlite"
)

// fakeBlocker holds who blocks whom, by account id.
type fakeBlocker map[[2]string]bool

func (f fakeBlocker) Blocks(userID, other string) bool { return f[[2]string{userID, other}] }

// TestBlocks checks that two accounts one of which blocks the other are
// apart in the lobby: neither sees the other's seeks, neither may
// challenge the other or accept the other's seek, quick pairing does not
// pair them; a third sees both.
func TestBlocks(t *testing.T) {
	st, err := sqlite.Open(filepath.Join(t.TempDir(), "lobby.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	users := httpxtest.Sessions{}
	for _, name := range []string{"ann", "bob", "cy"} {
		u := &store.User{ID: "id-" + name, Name: name, PasswordHash: "x", Created: time.Now().UTC().Truncate(time.Millisecond)}
		if err := st.CreateUser(context.Background(), u); err != nil {
			t.Fatal(err)
		}
		users[name] = u
	}
	lb := lobby.New(lobby.Config{Seeks: st, Pairing: st, Users: st, Feed: st, Games: games.All(), Sessions: users,
		Starter: &fakeStarter{}, Ratings: fakeRatings{1500}, Sockets: httpx.NewSockets(httpx.SocketLimits{MaxConns: 10, MaxConnsPerIP: 10}, nil, nil)})
	// Ann blocks bob.
	lb.SetBlocker(fakeBlocker{{"id-ann", "id-bob"}: true})
	m := http.NewServeMux()
	lb.Routes(m)
	ts := httptest.NewServer(m)
	defer ts.Close()

	var annSeek, bobSeek lobby.Seek
	call(t, ts, "ann", "POST", "/api/seeks", lobby.SeekRequest{Spec: "pogo"}, http.StatusCreated, &annSeek)
	call(t, ts, "bob", "POST", "/api/seeks", lobby.SeekRequest{Spec: "pogo"}, http.StatusCreated, &bobSeek)
	for _, c := range []struct {
		user string
		want []string
	}{
		{"ann", []string{"ann"}},
		{"bob", []string{"bob"}},
		{"cy", []string{"ann", "bob"}},
		{"", []string{"ann", "bob"}},
	} {
		var list struct{ Seeks []lobby.Seek }
		call(t, ts, c.user, "GET", "/api/seeks", nil, http.StatusOK, &list)
		var owners []string
		for _, sk := range list.Seeks {
			owners = append(owners, sk.Owner)
		}
		// Whose seeks, in any order: the two were made in the same
		// millisecond, or not.
		slices.Sort(owners)
		if !slices.Equal(owners, c.want) {
			t.Errorf("%q sees the seeks of %v; want %v", c.user, owners, c.want)
		}
	}
	call(t, ts, "bob", "POST", "/api/challenges", lobby.SeekRequest{Spec: "pogo", To: "ann"}, http.StatusForbidden, nil)
	call(t, ts, "ann", "POST", "/api/challenges", lobby.SeekRequest{Spec: "pogo", To: "bob"}, http.StatusForbidden, nil)
	call(t, ts, "bob", "POST", "/api/seeks/"+annSeek.ID+"/accept", nil, http.StatusNotFound, nil)
	call(t, ts, "ann", "POST", "/api/seeks/"+bobSeek.ID+"/accept", nil, http.StatusNotFound, nil)
	call(t, ts, "cy", "POST", "/api/challenges", lobby.SeekRequest{Spec: "pogo", To: "ann"}, http.StatusCreated, nil)
	call(t, ts, "cy", "POST", "/api/seeks/"+bobSeek.ID+"/accept", nil, http.StatusCreated, nil)

	// Quick pairing never pairs them: bob waits on after ann asks, and cy
	// is paired with the one who waited longer.
	pair := lobby.PairRequest{Spec: "pisola", Preset: "5+3"}
	call(t, ts, "bob", "POST", "/api/pairing", pair, http.StatusAccepted, nil)
	time.Sleep(5 * time.Millisecond) // the store keeps times to the millisecond
	call(t, ts, "ann", "POST", "/api/pairing", pair, http.StatusAccepted, nil)
	var got lobby.PairResponse
	call(t, ts, "cy", "POST", "/api/pairing", pair, http.StatusCreated, &got)
	renew := pair
	renew.Renew = true
	call(t, ts, "bob", "POST", "/api/pairing", renew, http.StatusNotFound, nil)
	call(t, ts, "ann", "POST", "/api/pairing", renew, http.StatusAccepted, nil)
}
