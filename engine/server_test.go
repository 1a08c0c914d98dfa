package engine

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"stax/ai"
	"stax/engine/internal/enginetest"
	"stax/game"
	"stax/games"
	"stax/search"
)

// session drives a Server in-process through pipes.
type session struct {
	t     *testing.T
	in    *io.PipeWriter
	lines chan string
	done  chan error
}

func testConfig() Config {
	return Config{
		Name: "stax", Author: "the stax developers", Registry: games.All(),
		NewPlayer: ai.New, Levels: ai.Levels, Extra: []string{"random", "greedy"},
		Level: "random", MaxThreads: 2,
	}
}

func startSession(t *testing.T, cfg Config) *session {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s := &session{t: t, in: inW, lines: make(chan string, 1024), done: make(chan error, 1)}
	go func() {
		s.done <- NewServer(cfg).Run(context.Background(), inR, outW)
		outW.Close()
	}()
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			s.lines <- sc.Text()
		}
		close(s.lines)
	}()
	t.Cleanup(func() {
		inW.Close()
		select {
		case <-s.done:
		case <-time.After(5 * time.Second):
			t.Error("server did not end after its input closed")
		}
	})
	return s
}

func (s *session) send(line string) {
	s.t.Helper()
	if _, err := io.WriteString(s.in, line+"\n"); err != nil {
		s.t.Fatalf("send %q: %v", line, err)
	}
}

// next returns the next line the server sent.
func (s *session) next() string {
	s.t.Helper()
	select {
	case l, ok := <-s.lines:
		if !ok {
			s.t.Fatal("server output ended")
		}
		return l
	case <-time.After(10 * time.Second):
		s.t.Fatal("no answer from the server within 10s")
	}
	return ""
}

// until returns the first line starting with prefix and the lines before.
func (s *session) until(prefix string) (string, []string) {
	s.t.Helper()
	var before []string
	for {
		l := s.next()
		if strings.HasPrefix(l, prefix) {
			return l, before
		}
		before = append(before, l)
	}
}

// sync sends isready and returns the lines answered before readyok.
func (s *session) sync() []string {
	s.t.Helper()
	s.send("isready")
	_, before := s.until("readyok")
	return before
}

func TestHandshake(t *testing.T) {
	s := startSession(t, testConfig())
	s.send("stax")
	_, lines := s.until("staxok")
	want := []string{"id name stax", "id author the stax developers", "option name level type combo default random", "option name threads type spin default 1 min 1 max 2", "option name hash"}
	if len(lines) < len(want) {
		t.Fatalf("handshake = %q; want at least %d lines", lines, len(want))
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("handshake line %d = %q; want prefix %q", i, lines[i], w)
		}
	}
	if !strings.Contains(lines[2], "var medium") || !strings.Contains(lines[2], "var greedy") {
		t.Errorf("level option %q does not list medium and greedy", lines[2])
	}
	if got := s.sync(); len(got) != 0 {
		t.Errorf("isready answered %q before readyok", got)
	}
}

// TestErrors checks that each bad command gets exactly one error line and
// that the engine goes on.
func TestErrors(t *testing.T) {
	tests := []struct {
		name  string
		setup []string
		cmd   string
		want  string
	}{
		{"unknown command", nil, "uci", `error unknown command "uci"`},
		{"newgame without spec", nil, "newgame", "error newgame: want newgame <spec>"},
		{"newgame two words", nil, "newgame pogo diam", "error newgame: want newgame <spec>"},
		{"unknown game", nil, "newgame chess", `error newgame: game spec "chess": unknown game`},
		{"bad option", nil, "newgame pogo(u=maybe)", "error newgame: game spec"},
		{"teams with two players", nil, "newgame diam(teams=true)", "error newgame: game spec"},
		{"position before newgame", nil, "position startpos", "error position: no game"},
		{"position without args", []string{"newgame pogo"}, "position", "error position: want position startpos"},
		{"position junk", []string{"newgame pogo"}, "position here", `error position: unexpected "here"`},
		{"startpos junk", []string{"newgame pogo"}, "position startpos 1a1-a2", `error position: unexpected "1a1-a2" after startpos`},
		{"missing position string", []string{"newgame pogo"}, "position pos moves 1a1-a2", "error position pos: missing the position string"},
		{"bad position string", []string{"newgame pogo"}, "position pos bb,bb/ww w", "error position: pogo position"},
		{"bad move", []string{"newgame pogo"}, "position startpos moves 1a1-a2 9z9", "error position: move 2 (9z9)"},
		{"illegal move", []string{"newgame pogo"}, "position startpos moves 1a1-b2", "error position: move 1 (1a1-b2)"},
		{"move after the end", []string{"newgame pogo"}, "position pos bbw,bbw,bbw/-,-,-/w,w,w b moves 1a1-a2", "error position: move 1"},
		{"diam bad move", []string{"newgame diam(players=4)"}, "position startpos moves r@1 r@2", "error position: move 2 (r@2)"},
		{"go without game", nil, "go", "error go: no position"},
		{"go after a bad position", []string{"newgame pogo", "position startpos moves zz"}, "go", "error go: no position"},
		{"go unknown parameter", []string{"newgame pogo", "position startpos"}, "go wtime 100", `error go: unknown parameter "wtime"`},
		{"go bad movetime", []string{"newgame pogo", "position startpos"}, "go movetime soon", `error go: movetime "soon"`},
		{"go negative depth", []string{"newgame pogo", "position startpos"}, "go depth -1", `error go: depth "-1"`},
		{"go missing value", []string{"newgame pogo", "position startpos"}, "go nodes", "error go: nodes needs a value"},
		{"setoption syntax", nil, "setoption level hard", "error setoption: want setoption name"},
		{"setoption no value", nil, "setoption name level value", "error setoption: want setoption name"},
		{"unknown option", nil, "setoption name ponder value true", `error setoption: unknown option "ponder"`},
		{"unknown level", nil, "setoption name level value grandmaster", `error setoption level: unknown level "grandmaster"`},
		{"threads zero", nil, "setoption name threads value 0", `error setoption threads: "0"`},
		{"hash not a number", nil, "setoption name hash value lots", `error setoption hash: "lots"`},
		{"negative clock", []string{"newgame pogo", "position startpos"}, "go time1 -5", `error go: time1 "-5": want a number of milliseconds`},
		{"bad clock seat", []string{"newgame pogo", "position startpos"}, "go time5 100", `error go: unknown parameter "time5"`},
		{"legal without position", nil, "legal", "error legal: no position"},
		{"show without position", nil, "show", "error show: no position"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := startSession(t, testConfig())
			for _, c := range tc.setup {
				s.send(c)
			}
			s.sync()
			s.send(tc.cmd)
			got := s.sync()
			if len(got) != 1 || !strings.HasPrefix(got[0], tc.want) {
				t.Errorf("%q answered %q; want one line starting %q", tc.cmd, got, tc.want)
			}
		})
	}
}

func TestGood(t *testing.T) {
	tests := []struct {
		name string
		cmds []string
		want []string // prefixes of the lines answered, in order
	}{
		{"options", []string{"setoption name level value greedy", "setoption name threads value 2", "setoption name hash value 64", "setoption name Level value easy"}, nil},
		{"legal at start", []string{"newgame pogo", "position startpos", "legal"}, []string{"legal 1a1-b1 1a1-a2 "}},
		{"position string with moves", []string{"newgame pogo", "position pos bb,bb,bb/-,-,-/ww,ww,ww w moves 1a1-a2", "show"},
			[]string{"info string game pogo", "info string position bb,bb,bb/w,-,-/w,ww,ww b", "info string tomove 2 Black"}},
		{"diam 4 players", []string{"newgame diam(players=4)", "position startpos moves r@1 g@5 y@2", "show"},
			[]string{"info string game diam(players=4)", "info string position r/y/-/-/g/-/-/- 4", "info string tomove 4 Blue"}},
		{"game over", []string{"newgame pogo", "position pos bbw,bbw,bbw/-,-,-/w,w,w b", "go movetime 10"},
			[]string{"info string game over: White wins", "bestmove none"}},
		{"game over legal", []string{"newgame pogo", "position pos bbw,bbw,bbw/-,-,-/w,w,w b", "legal"}, []string{"legal"}},
		{"level kept for the next game", []string{"setoption name level value greedy", "newgame diam", "position startpos", "go"}, []string{"info depth 1", "bestmove "}},
		{"depth", []string{"newgame pogo", "position startpos", "go depth 1"}, []string{"info depth 1 score 0 nodes 1 nps", "bestmove "}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := startSession(t, testConfig())
			for _, c := range tc.cmds {
				s.send(c)
			}
			var got []string
			if last := tc.cmds[len(tc.cmds)-1]; strings.HasPrefix(last, "go") {
				l, before := s.until("bestmove")
				got = append(before, l)
			} else {
				got = s.sync()
			}
			if len(got) != len(tc.want) {
				t.Fatalf("answered %q; want %d lines starting %q", got, len(tc.want), tc.want)
			}
			for i := range got {
				if !strings.HasPrefix(got[i], tc.want[i]) {
					t.Errorf("line %d = %q; want prefix %q", i, got[i], tc.want[i])
				}
			}
		})
	}
}

func TestInfiniteAndStop(t *testing.T) {
	s := startSession(t, testConfig())
	s.send("newgame diam(players=4)")
	s.send("position startpos")
	s.send("go infinite")
	// The search answers isready while it runs, and holds its bestmove
	// until stop.
	for range 3 {
		if got := s.sync(); len(got) > 1 || len(got) == 1 && !strings.HasPrefix(got[0], "info depth") {
			t.Fatalf("during go infinite, isready answered %q", got)
		}
	}
	s.send("stop")
	l, _ := s.until("bestmove ")
	if _, err := game.Registry(games.All()).Load("diam(players=4)"); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(l, "bestmove ") || len(strings.Fields(l)) != 2 {
		t.Errorf("after stop: %q; want bestmove <move>", l)
	}
	// A command other than isready and stop ends an infinite search too.
	s.send("go infinite")
	s.send("show")
	l, _ = s.until("bestmove ")
	if l2 := s.next(); !strings.HasPrefix(l2, "info string game") {
		t.Errorf("after the bestmove: %q; want the answer to show", l2)
	}
	s.send("quit")
}

// misbehaving players, for TestBadPlayer.
type panicPlayer struct{}

func (panicPlayer) Play(ctx context.Context, pos search.Position, lim search.Limits, report func(search.Progress)) (search.Result, error) {
	panic("evaluation table missing")
}

type failPlayer struct{}

func (failPlayer) Play(ctx context.Context, pos search.Position, lim search.Limits, report func(search.Progress)) (search.Result, error) {
	return search.Result{}, errors.New("out of ideas")
}

type wrongPlayer struct{}

func (wrongPlayer) Play(ctx context.Context, pos search.Position, lim search.Limits, report func(search.Progress)) (search.Result, error) {
	report(search.Progress{Depth: 1, Score: search.WinIn(3), Nodes: 5, Elapsed: time.Millisecond, PV: []game.Move{1<<31 + 7}})
	return search.Result{Move: 1<<31 + 7}, nil
}

// TestBadPlayer checks that a player that panics, fails or returns an
// illegal move still yields a legal bestmove, with a note.
func TestBadPlayer(t *testing.T) {
	for _, p := range []search.Player{panicPlayer{}, failPlayer{}, wrongPlayer{}} {
		t.Run(fmt.Sprintf("%T", p), func(t *testing.T) {
			cfg := testConfig()
			cfg.NewPlayer = func(game.Game, string) (search.Player, error) { return p, nil }
			s := startSession(t, cfg)
			s.send("newgame pogo")
			s.send("position startpos")
			s.send("go movetime 10")
			l, before := s.until("bestmove")
			if l != "bestmove 1a1-b1" {
				t.Errorf("bestmove = %q; want the first legal move 1a1-b1", l)
			}
			if len(before) == 0 || !strings.HasPrefix(before[len(before)-1], "info string search") {
				t.Errorf("lines before bestmove %q; want an info string note", before)
			}
		})
	}
}

// drawPlayer proves every position drawn and plays the first move.
type drawPlayer struct{}

func (drawPlayer) Play(ctx context.Context, pos search.Position, lim search.Limits, report func(search.Progress)) (search.Result, error) {
	m := pos.State.Legal(nil)[0]
	return search.Result{Move: m, Score: search.ProvenDraw, PV: []game.Move{m}, Depth: 1, Nodes: 1, Elapsed: time.Millisecond}, nil
}

// TestScoreDraw checks that a proven draw is reported as score draw.
func TestScoreDraw(t *testing.T) {
	cfg := testConfig()
	cfg.NewPlayer = func(game.Game, string) (search.Player, error) { return drawPlayer{}, nil }
	s := startSession(t, cfg)
	s.send("newgame pogo")
	s.send("position startpos")
	s.send("go")
	l, before := s.until("bestmove")
	if l != "bestmove 1a1-b1" || len(before) == 0 || !strings.HasPrefix(before[len(before)-1], "info depth 1 score draw nodes 1 ") {
		t.Errorf("got %q then %q; want an info line with score draw, then bestmove 1a1-b1", before, l)
	}
}

// specs lists a variant of every game, 4-player Diam included.
var specs = []string{"pogo", "pogo(u=false)", "diam", "diam(players=4)", "diam(players=4,teams=true)", "diam(drop=any)", "pisola", "pisola(roofs=true)"}

// loadable returns the specs of games the registry knows.
func loadable(t *testing.T) []string {
	var out []string
	for _, sp := range specs {
		if _, err := games.Load(sp); err == nil {
			out = append(out, sp)
		} else {
			t.Logf("skipping %s: %v", sp, err)
		}
	}
	return out
}

// TestWholeGamesInProcess plays every game to its end, the engine choosing
// every move, and checks each bestmove against the rules.
func TestWholeGamesInProcess(t *testing.T) {
	for _, spec := range loadable(t) {
		t.Run(spec, func(t *testing.T) {
			s := startSession(t, testConfig())
			g, _ := games.Load(spec)
			h := game.NewHistory(g, nil)
			s.send("newgame " + spec)
			for !h.Over() {
				line := "position startpos"
				if h.Ply() > 0 {
					line += " moves " + strings.Join(h.Notation(), " ")
				}
				s.send(line)
				s.send("go movetime 5")
				l, before := s.until("bestmove ")
				for _, b := range before {
					if !strings.HasPrefix(b, "info ") {
						t.Fatalf("ply %d: unexpected %q", h.Ply(), b)
					}
				}
				if err := h.Play(strings.TrimPrefix(l, "bestmove ")); err != nil {
					t.Fatalf("ply %d: %q: %v", h.Ply(), l, err)
				}
			}
			s.send("position startpos moves " + strings.Join(h.Notation(), " "))
			s.send("go")
			if l, _ := s.until("bestmove"); l != "bestmove none" {
				t.Errorf("after the end: %q; want bestmove none", l)
			}
			t.Logf("%s: %d plies, %s", spec, h.Ply(), h.Outcome().Describe(g))
		})
	}
}

// historyPlayer records the earlier positions it is given and plays the
// first move.
type historyPlayer struct{ got chan []uint64 }

func (h *historyPlayer) Play(ctx context.Context, pos search.Position, lim search.Limits, report func(search.Progress)) (search.Result, error) {
	h.got <- slices.Clone(pos.Prior)
	return search.Result{Move: pos.State.Legal(nil)[0]}, nil
}

// TestHistory checks that a player is told the positions before the one it
// plays, for repetitions.
func TestHistory(t *testing.T) {
	hp := &historyPlayer{got: make(chan []uint64, 1)}
	cfg := testConfig()
	cfg.NewPlayer = func(game.Game, string) (search.Player, error) { return hp, nil }
	s := startSession(t, cfg)
	s.send("newgame pogo")
	s.send("position startpos moves 1a1-a2 1a3-b3 1a2-a1")
	s.send("go")
	s.until("bestmove")
	got := <-hp.got
	g, _ := games.Load("pogo")
	st := g.Start()
	want := []uint64{st.Hash()}
	for _, m := range []string{"1a1-a2", "1a3-b3"} {
		mv, _ := st.ParseMove(m)
		st.Apply(mv)
		want = append(want, st.Hash())
	}
	if !slices.Equal(got, want) {
		t.Errorf("the player got the earlier positions %x; want %x", got, want)
	}
}

// TestLevelPerGame checks that a level offered for one game only is
// replaced, with a note, in a game that lacks it.
func TestLevelPerGame(t *testing.T) {
	cfg := testConfig()
	cfg.Levels = func(g game.Game) []string {
		if g.Info().Name == "pogo" {
			return []string{"easy", "hard", "perfect"}
		}
		return []string{"easy", "hard"}
	}
	cfg.Level = "easy"
	played := make(chan string, 16)
	cfg.NewPlayer = func(g game.Game, level string) (search.Player, error) {
		played <- g.Info().Name + ":" + level
		return ai.New(g, "random")
	}
	// goPlays sends go and returns the game and level of the player made.
	goPlays := func(s *session) string {
		t.Helper()
		s.send("position startpos")
		s.send("go depth 1")
		s.until("bestmove")
		select {
		case p := <-played:
			return p
		default:
			t.Fatal("go made no new player")
		}
		return ""
	}
	s := startSession(t, cfg)
	s.send("stax")
	if l, _ := s.until("option name level"); !strings.Contains(l, "var perfect") {
		t.Errorf("level option %q does not offer perfect", l)
	}
	s.until("staxok")
	s.send("newgame pogo")
	s.send("setoption name level value Perfect")
	if got := s.sync(); len(got) != 0 {
		t.Errorf("Perfect in pogo: %q", got)
	}
	<-played
	s.send("newgame diam")
	if got := s.sync(); len(got) != 1 || got[0] != "info string level perfect is not available for diam; playing hard" {
		t.Errorf("newgame diam with level perfect: %q", got)
	}
	if got := goPlays(s); got != "diam:hard" {
		t.Errorf("go in diam with level perfect played %s; want diam:hard", got)
	}
	// The level asked for comes back with a game that offers it.
	s.send("newgame pogo")
	if got := s.sync(); len(got) != 0 {
		t.Errorf("newgame pogo after diam: %q", got)
	}
	if got := goPlays(s); got != "pogo:perfect" {
		t.Errorf("go in pogo after diam played %s; want pogo:perfect", got)
	}
	s.send("newgame diam")
	s.send("setoption name level value perfect")
	if got := s.sync(); len(got) != 2 || !strings.HasPrefix(got[1], `error setoption level: unknown level "perfect" for diam`) {
		t.Errorf("perfect in diam: %q", got)
	}

	// A default level that a game lacks is stood in for as well.
	cfg.Level = "perfect"
	s = startSession(t, cfg)
	s.send("newgame pisola")
	if got := s.sync(); len(got) != 1 || got[0] != "info string level perfect is not available for pisola; playing hard" {
		t.Errorf("newgame pisola with default level perfect: %q", got)
	}
	if got := goPlays(s); got != "pisola:hard" {
		t.Errorf("go in pisola with default level perfect played %s; want pisola:hard", got)
	}
}

// TestGamesOption checks that setoption name games restricts the games
// newgame accepts, as the handshake's string option promises.
func TestGamesOption(t *testing.T) {
	s := startSession(t, testConfig())
	s.send("setoption name games value Pogo, diam")
	s.send("newgame pisola")
	s.send("newgame diam(players=4)")
	s.send("setoption name games value chess")
	got := s.sync()
	if len(got) != 2 || !strings.HasPrefix(got[0], "error newgame: pisola is not among the games set by setoption name games (pogo,diam)") ||
		!strings.HasPrefix(got[1], `error setoption games: unknown game "chess"`) {
		t.Errorf("games option: %q", got)
	}
}

// TestLongLine checks that an overlong line is refused and the engine goes
// on, and that a last line without a newline is read.
func TestLongLine(t *testing.T) {
	in := "newgame pogo\nposition startpos moves " + strings.Repeat("1a1-a2 ", 300_000) + "\r\nisready\r\nlegal"
	var out strings.Builder
	if err := NewServer(testConfig()).Run(context.Background(), strings.NewReader(in), &lockedBuilder{b: &out}); err != nil {
		t.Fatal(err)
	}
	want := "error line longer than 1048576 bytes ignored\nreadyok\nlegal 1a1-b1 "
	if !strings.HasPrefix(out.String(), want) {
		t.Errorf("output %q; want %q", out.String(), want)
	}
}

// TestRunCancelled checks that cancelling Run's context ends it and its
// reader promptly, for the kinds of input it can interrupt: an in-process
// pipe and an operating-system pipe.
func TestRunCancelled(t *testing.T) {
	inputs := map[string]func(t *testing.T) (io.Reader, io.Closer){
		"io.Pipe": func(t *testing.T) (io.Reader, io.Closer) {
			r, w := io.Pipe()
			return r, w
		},
		"os.Pipe": func(t *testing.T) (io.Reader, io.Closer) {
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { r.Close() })
			return r, w
		},
	}
	for name, open := range inputs {
		t.Run(name, func(t *testing.T) {
			before := runtime.NumGoroutine()
			r, w := open(t)
			defer w.Close()
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() { done <- NewServer(testConfig()).Run(ctx, r, io.Discard) }()
			time.Sleep(20 * time.Millisecond) // let the reader block
			cancel()
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("Run = %v after cancel; want nil", err)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("Run did not return after its context was cancelled")
			}
			checkNoLeak(t, before, "Run")
		})
	}
}

// TestSeed checks that the players of a session draw from a real random
// source unless the seed option asks for a reproducible session.
func TestSeed(t *testing.T) {
	cfg := testConfig()
	cfg.NewSeeded = ai.NewSeeded
	moves := func(setup ...string) string {
		s := startSession(t, cfg)
		for _, l := range setup {
			s.send(l)
		}
		var got []string
		for range 12 {
			s.send("newgame pogo")
			s.send("position startpos")
			s.send("go")
			l, _ := s.until("bestmove")
			got = append(got, l)
		}
		if errs := s.sync(); len(errs) != 0 {
			t.Fatalf("unexpected lines %q", errs)
		}
		return strings.Join(got, ",")
	}
	if a, b := moves(), moves(); a == b {
		t.Errorf("two unseeded sessions chose the same 12 random moves: %s", a)
	}
	seeded := "setoption name seed value 77"
	if a, b := moves(seeded), moves(seeded); a != b {
		t.Errorf("two sessions with seed 77 differ:\n%s\n%s", a, b)
	}
	s := startSession(t, cfg)
	s.send("setoption name seed value -1")
	if got := s.sync(); len(got) != 1 || !strings.HasPrefix(got[0], `error setoption seed: "-1"`) {
		t.Errorf("bad seed: %q", got)
	}
}

// TestIsreadyPrepares checks that after newgame isready answers readyok
// only once the level is prepared, saying meanwhile that it is at work (on
// a fake clock, moved by the 2 s between those notes), and says so when it
// could not be prepared.
func TestIsreadyPrepares(t *testing.T) {
	release := make(chan struct{})
	var asked []string
	clock := enginetest.NewClock()
	cfg := testConfig()
	cfg.Clock = clock
	cfg.Prepare = func(ctx context.Context, g game.Game, level string) error {
		asked = append(asked, g.Info().Name+" "+level)
		<-release
		if level == "easy" {
			return errors.New("no table")
		}
		return nil
	}
	s := startSession(t, cfg)
	if got := s.sync(); len(got) != 0 || len(asked) != 0 {
		t.Errorf("isready before newgame: %q, prepared %q", got, asked)
	}
	s.send("newgame pogo")
	s.send("isready")
	// While preparing it says so every 2 s, and sends nothing else.
	clock.AdvanceWhenPending(t, preparingTick)
	if l := s.next(); l != "info string preparing level random for pogo (2s so far)" {
		t.Fatalf("%q while the level was being prepared", l)
	}
	close(release)
	if _, before := s.until("readyok"); len(before) != 0 {
		t.Errorf("lines before readyok: %q", before)
	}
	s.send("setoption name level value easy")
	if got := s.sync(); len(got) != 1 || got[0] != "info string level easy is not ready: no table" {
		t.Errorf("isready with a level that cannot be prepared: %q", got)
	}
	if want := []string{"pogo random", "pogo easy"}; !slices.Equal(asked, want) {
		t.Errorf("prepared %q; want %q", asked, want)
	}
}

// TestErrorLinesUTF8 checks that error lines quoting raw input are valid
// UTF-8 on one line, with the raw bytes escaped.
func TestErrorLinesUTF8(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"plain words", "plain words"},
		{"a\n\tb  c", "a b c"},
		{"bad \xff\xfe byte", `bad \xff\xfe byte`},
		{"esc \x1b[31m", `esc \x1b[31m`},
		{"bidi \u202e", `bidi \u202e`},
		{"Zoë 李", "Zoë 李"},
	} {
		if got := oneLine(tt.in); got != tt.want || !utf8.ValidString(got) {
			t.Errorf("oneLine(%q) = %q; want %q", tt.in, got, tt.want)
		}
	}
	s := startSession(t, testConfig())
	s.send("newgame pogo")
	s.sync()
	for _, cmd := range []string{"position pos bb\xff,bb,bb/-,-,-/ww,ww,ww w", "position startpos moves 1a1\xc3-a2", "\xff\xfe"} {
		s.send(cmd)
		got := s.sync()
		if len(got) != 1 || !strings.HasPrefix(got[0], "error ") || !utf8.ValidString(got[0]) {
			t.Errorf("%q answered %q; want one valid UTF-8 error line", cmd, got)
		}
	}
}

// resourcePlayer records the threads and hash it is given.
type resourcePlayer struct {
	search.Player
	threads, hash chan int
}

func (p *resourcePlayer) SetThreads(n int)   { p.threads <- n }
func (p *resourcePlayer) SetHashSize(mb int) { p.hash <- mb }

// TestResources checks that the threads and hash options reach the
// player, when it is made and when they change.
func TestResources(t *testing.T) {
	cfg := testConfig()
	rp := &resourcePlayer{threads: make(chan int, 8), hash: make(chan int, 8)}
	cfg.NewPlayer = func(g game.Game, level string) (search.Player, error) {
		p, err := ai.New(g, "random")
		rp.Player = p
		return rp, err
	}
	s := startSession(t, cfg)
	s.send("setoption name threads value 2")
	s.send("setoption name hash value 64")
	s.send("newgame pogo")
	s.send("position startpos")
	s.send("go depth 1")
	s.until("bestmove")
	if th, h := <-rp.threads, <-rp.hash; th != 2 || h != 64 {
		t.Errorf("new player given threads %d, hash %d; want 2 and 64", th, h)
	}
	s.send("setoption name hash value 8")
	s.sync()
	if th, h := <-rp.threads, <-rp.hash; th != 2 || h != 8 {
		t.Errorf("after setoption hash 8: threads %d, hash %d; want 2 and 8", th, h)
	}
}

// TestExplicitLimits checks that the strongest level searches as long as
// it is told (its own budget is 1.5 s a move), while a lower level keeps
// its depth cap whatever it is told.
func TestExplicitLimits(t *testing.T) {
	if testing.Short() {
		t.Skip("searches for 2.5 s")
	}
	s := startSession(t, testConfig())
	s.send("setoption name level value strongest")
	s.send("newgame pisola")
	s.send("position startpos")
	s.send("go infinite")
	// The search has begun when it reports its first depth; 2.5 s from
	// then it has searched longer than its own budget, however late it
	// began.
	first := s.next()
	if !strings.HasPrefix(first, "info depth") {
		t.Fatalf("go infinite at strongest: first line %q; want an info line of the search", first)
	}
	time.Sleep(2500 * time.Millisecond)
	s.send("stop")
	_, infos := s.until("bestmove")
	infos = append([]string{first}, infos...)
	last := infos[len(infos)-1]
	var ms int
	if i := strings.Index(last, " time "); i < 0 {
		t.Fatalf("last info line %q has no time", last)
	} else {
		fmt.Sscan(last[i+6:], &ms)
	}
	if ms < 2000 {
		t.Errorf("go infinite at strongest, stopped after 2.5 s: the search ended after %d ms (%q); want it to go on until stop", ms, last)
	}
	s.send("setoption name level value hard")
	s.send("newgame pogo")
	s.send("position startpos")
	s.send("go depth 12")
	_, infos = s.until("bestmove")
	for _, l := range infos {
		var d int
		fmt.Sscanf(l, "info depth %d", &d)
		if d > 4 {
			t.Errorf("hard (depth 4) told depth 12 searched %q", l)
		}
	}
}

// limitsPlayer records the limits it is asked to play within and plays
// the first legal move.
type limitsPlayer struct{ got chan search.Limits }

func (p *limitsPlayer) Play(ctx context.Context, pos search.Position, lim search.Limits, report func(search.Progress)) (search.Result, error) {
	p.got <- lim
	return search.Result{Move: pos.State.Legal(nil)[0]}, nil
}

// TestGoClock checks that a player told the seats' clocks is given the
// mover's clock (the other seat's is not its to spend), whose budget is
// its share of it. It looks at the limits the player is given, not at how
// long a search takes, so that a loaded machine cannot fail it; the
// search's keeping to a budget is search's to test.
func TestGoClock(t *testing.T) {
	lp := &limitsPlayer{got: make(chan search.Limits, 1)}
	cfg := testConfig()
	cfg.NewPlayer = func(game.Game, string) (search.Player, error) { return lp, nil }
	s := startSession(t, cfg)
	s.send("newgame pisola")
	s.send("position startpos moves a1+c1")
	// Black to move, with 2 s left; White has a minute.
	s.send("go time1 60000 inc1 0 time2 2000 inc2 0")
	s.until("bestmove")
	lim := <-lp.got
	if want := (search.Clock{Remaining: 2 * time.Second}); lim.Clock != want {
		t.Errorf("Black to move with 2 s on its clock and a minute on White's: the player's clock is %+v; want %+v", lim.Clock, want)
	}
	if b := lim.Budgeted().Time; b <= 0 || b > 2*time.Second/20 {
		t.Errorf("with 2 s on its clock the player's budget is %v; want about 2 s / 25", b)
	}
	s.send("position startpos")
	s.send("go time1 3000 time2 3000 movestogo 1")
	s.until("bestmove")
	lim = <-lp.got
	if want := (search.Clock{Remaining: 3 * time.Second, MovesToGo: 1}); lim.Clock != want {
		t.Errorf("White to move with 3 s for its last move before the control: the player's clock is %+v; want %+v", lim.Clock, want)
	}
	if b := lim.Budgeted().Time; b < 2*time.Second || b >= 3*time.Second {
		t.Errorf("with 3 s for its last move before the control the player's budget is %v; want most of it", b)
	}
	// Told a move time as well, the player keeps to the smaller.
	s.send("go time1 3000 time2 3000 movestogo 1 movetime 100")
	s.until("bestmove")
	if b := (<-lp.got).Budgeted().Time; b != 100*time.Millisecond {
		t.Errorf("with 3 s on the clock and a move time of 100 ms the player's budget is %v; want 100ms", b)
	}
}
