package loadtest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/cookiejar"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"stax/server/play"
)

// AccountsReport is what the server did to the scenarios aimed at
// accounts and queues: guesses at one account's password spread over
// twenty addresses, seek churn from one account, and one address's crowd
// of games against a strong computer beside another player's game.
type AccountsReport struct {
	Guesses, GuessesRefused int  // wrong sign-ins sent, and refused with 429
	OwnerSignedIn           bool // the owner, from the browser where they signed in before
	NewDeviceHeld           bool // the right password from a new browser was held by the limit
	SeekChanges, SeekHeld   int  // seeks posted and cancelled, and refused with 429
	LobbyBytes              int  // bytes a lobby connection received during the churn
	CrowdGames              int  // games of the crowd's address against the computer
	OtherAnswer             time.Duration
}

func (r AccountsReport) String() string {
	return fmt.Sprintf("guesses over 20 addresses: %d sent, %d refused; the owner's browser signed in: %v; a new browser held: %v\n", r.Guesses, r.GuessesRefused, r.OwnerSignedIn, r.NewDeviceHeld) +
		fmt.Sprintf("seek churn from one account: %d tried, %d refused; a lobby connection received %d bytes\n", r.SeekChanges, r.SeekHeld, r.LobbyBytes) +
		fmt.Sprintf("computer moves: another address's answer came after %v beside one address's %d games", r.OtherAnswer.Round(time.Millisecond), r.CrowdGames)
}

// browser is an HTTP client from ip with its own cookies.
func browser(ip string) *http.Client {
	c := from(ip)
	c.Jar, _ = cookiejar.New(nil)
	return c
}

// post sends a JSON body and returns the status.
func (a *abuser) post(ctx context.Context, c *http.Client, method, path string, body any) int {
	b, _ := json.Marshal(body)
	req, _ := http.NewRequestWithContext(ctx, method, a.base+path, bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	res, err := c.Do(req)
	if err != nil {
		return 0
	}
	defer res.Body.Close()
	if method == "POST" && path == "/api/seeks" && res.StatusCode == http.StatusCreated {
		var sk struct{ ID string }
		json.NewDecoder(res.Body).Decode(&sk)
		a.lastSeek = sk.ID
	}
	return res.StatusCode
}

// accounts runs the scenarios aimed at accounts and queues.
func (a *abuser) accounts(ctx context.Context, rep *AccountsReport) {
	ctx, cancel := context.WithTimeout(ctx, a.cfg.Limit)
	defer cancel()
	name := fmt.Sprintf("owner%d", time.Now().UnixNano()%100000)
	owner := browser("127.0.3.1")
	creds := map[string]string{"name": name, "password": "the owner's own secret"}
	if code := a.post(ctx, owner, "POST", "/api/signup", creds); code != http.StatusCreated {
		a.progress("accounts: signing the owner up answered %d; skipped", code)
		return
	}
	a.post(ctx, owner, "POST", "/api/logout", struct{}{})

	// One guess a second per address, twenty addresses, three rounds.
	for round := range 3 {
		var wg sync.WaitGroup
		var refused atomic.Int64
		for i := range 20 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				code := a.post(ctx, from(fmt.Sprintf("127.0.4.%d", i+1)), "POST", "/api/login", map[string]string{"name": name, "password": fmt.Sprint("guess ", round, i)})
				if code == http.StatusTooManyRequests {
					refused.Add(1)
				}
			}()
		}
		wg.Wait()
		rep.Guesses += 20
		rep.GuessesRefused += int(refused.Load())
		time.Sleep(time.Second)
	}
	rep.OwnerSignedIn = a.post(ctx, owner, "POST", "/api/login", creds) == http.StatusOK
	rep.NewDeviceHeld = a.post(ctx, browser("127.0.3.2"), "POST", "/api/login", creds) == http.StatusTooManyRequests
	a.progress("guesses: %d of %d refused; owner in: %v", rep.GuessesRefused, rep.Guesses, rep.OwnerSignedIn)

	// Seek churn, watched by a lobby connection from elsewhere.
	if rep.OwnerSignedIn {
		ws, _, err := websocket.Dial(ctx, a.wsBase+"/ws/lobby", &websocket.DialOptions{HTTPClient: from("127.0.3.3")})
		var got atomic.Int64
		done := make(chan struct{})
		if err == nil {
			ws.SetReadLimit(1 << 22)
			go func() {
				defer close(done)
				for {
					_, data, err := ws.Read(ctx)
					if err != nil {
						return
					}
					got.Add(int64(len(data)))
				}
			}()
		} else {
			close(done)
		}
		for range 50 {
			rep.SeekChanges += 2
			if a.post(ctx, owner, "POST", "/api/seeks", map[string]string{"spec": "pogo"}) == http.StatusTooManyRequests {
				rep.SeekHeld++
				continue
			}
			if a.post(ctx, owner, "DELETE", "/api/seeks/"+a.lastSeek, struct{}{}) == http.StatusTooManyRequests {
				rep.SeekHeld++
			}
		}
		time.Sleep(time.Second)
		if ws != nil {
			ws.CloseNow()
		}
		<-done
		rep.LobbyBytes = int(got.Load())
		a.progress("seek churn: %d of %d refused; lobby received %d bytes", rep.SeekHeld, rep.SeekChanges, rep.LobbyBytes)
	}

	// One address's crowd against a strong computer, then another
	// address's game against an easy one.
	crowd := min(a.cfg.ComputerPerAddr, 20)
	var wg sync.WaitGroup
	for range crowd {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a.oneComputerMove(ctx, "127.0.5.1", a.cfg.Spec, a.cfg.Level)
		}()
	}
	time.Sleep(500 * time.Millisecond) // the crowd's moves are queued
	rep.CrowdGames = crowd
	rep.OtherAnswer = a.oneComputerMove(ctx, "127.0.6.1", a.cfg.Spec, "easy")
	a.progress("another address's computer answered after %v", rep.OtherAnswer)
	cancel()
	wg.Wait()
}

// oneComputerMove creates a game against level from ip, plays the first
// move, and returns how long the computer took to answer (0 if it did not
// within the context).
func (a *abuser) oneComputerMove(ctx context.Context, ip, spec, level string) time.Duration {
	cr, _, err := a.create(ctx, from(ip), play.CreateRequest{Spec: spec, Seats: []play.SeatRequest{{Kind: "human"}, {Kind: "ai", Level: level}}})
	if err != nil {
		return 0
	}
	ws, _, err := websocket.Dial(ctx, a.wsBase+"/ws/games/"+cr.ID+"?token="+cr.Token, &websocket.DialOptions{HTTPClient: from(ip)})
	if err != nil {
		return 0
	}
	defer ws.CloseNow()
	ws.SetReadLimit(1 << 22)
	var sent time.Time
	for {
		_, data, err := ws.Read(ctx)
		if err != nil {
			return 0
		}
		var m struct {
			State *play.State
		}
		if json.Unmarshal(data, &m) != nil || m.State == nil {
			continue
		}
		switch {
		case sent.IsZero() && m.State.Ply == 0 && len(m.State.Legal()) > 0:
			b, _ := json.Marshal(play.Message{Type: "move", Move: m.State.Legal()[0], Ply: new(int)})
			if ws.Write(ctx, websocket.MessageText, b) != nil {
				return 0
			}
			sent = time.Now()
		case !sent.IsZero() && m.State.Ply >= 2:
			return time.Since(sent)
		case strings.EqualFold(m.State.Status, "finished"):
			return 0
		}
	}
}
