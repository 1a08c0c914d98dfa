package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"stax/game/record"
	"stax/games"
)

// pogoWin is a Pogo game that Black wins by the rules on its last move.
var pogoWin = []string{"2c1-c3", "1a3-a2", "2c3-a3", "1c3-c2", "2a1-b2", "1c2-b2", "2b1-c2", "1b3-a3", "2c2-b3", "3b2-b3"}

func lines(l ...string) string { return strings.Join(l, "\n") + "\n" }

func TestPlayHumansToTheEnd(t *testing.T) {
	out, _, err := runCmd(t, lines(pogoWin...), "play", "pogo", "--white", "human", "--black", "human:bob")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"Pogo: White (human) vs Black (bob)",
		"White plays 2c1-c3",
		"Black plays 3b2-b3",
		"Game over: Black wins (every stack topped by Black). Result 0-1.",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Count(out, "position: ") != len(pogoWin)+1 {
		t.Errorf("want the board drawn %d times:\n%s", len(pogoWin)+1, out)
	}
}

func TestPlayHumanAgainstComputer(t *testing.T) {
	// From a position where White wins at once.
	out, _, err := runCmd(t, lines("1a1-b1"), "play", "pogo", "--pos", "-,-,-/-,-,-/w,wwwwwbbbbbb,- w", "--black", "random")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "Game over: White wins") || !strings.Contains(out, "Result 1-0.") {
		t.Errorf("output:\n%s", out)
	}
	// The computer answers a move; the human then resigns. Level names
	// are case-insensitive.
	out, _, err = runCmd(t, lines("1a1-a2", "resign"), "play", "pogo", "--black", "Random", "--seed", "7")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Black (stax:random) plays ", "Game over: Black wins (White resigned). Result 0-1."} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// The computer moves first when it has the first seat.
	out, _, err = runCmd(t, lines("quit"), "play", "diam", "--seat1", "random", "--seat2", "human", "--seed", "1")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "Player 1 (red, yellow) (stax:random) plays ") || !strings.Contains(out, "Game not finished.") {
		t.Errorf("output:\n%s", out)
	}
}

func TestPlayComputers(t *testing.T) {
	dir := t.TempDir()
	for _, spec := range []string{"pogo", "diam", "diam(players=4,teams=true)"} {
		t.Run(spec, func(t *testing.T) {
			file := filepath.Join(dir, strings.NewReplacer("(", "_", ")", "_", ",", "_", "=", "_").Replace(spec)+".txt")
			args := []string{"play", spec, "--seed", "3", "--save", file}
			for i := 1; i <= 4; i++ {
				args = append(args, "--seat"+string(rune('0'+i)), "random")
				if !strings.Contains(spec, "players=4") && i == 2 {
					break
				}
			}
			out, _, err := runCmd(t, "", args...)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(out, "Game over: ") || strings.Contains(out, "> ") {
				t.Fatalf("output:\n%s", out)
			}
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			r, err := record.Parse(string(data))
			if err != nil {
				t.Fatal(err)
			}
			h, err := r.Replay(games.All())
			if err != nil {
				t.Fatal(err)
			}
			if !h.Over() || !strings.Contains(out, "Result "+r.Get("Result")+".") {
				t.Errorf("record %s does not match the output:\n%s", data, out)
			}
			if r.Get("Seat1") != "stax:random" || r.Get("Date") == "" {
				t.Errorf("record tags: %q", r.Tags)
			}
		})
	}
}

func TestPlayUndo(t *testing.T) {
	out, _, err := runCmd(t, lines("undo", "1a1-a2", "undo", "undo", "quit"), "play", "pogo", "--black", "random", "--seed", "2")
	if err != nil {
		t.Fatal(err)
	}
	first := strings.Index(out, "nothing to undo")
	took := strings.Index(out, "took back 2 moves")
	second := strings.LastIndex(out, "nothing to undo")
	if first < 0 || took < first || second < took {
		t.Errorf("want nothing to undo, took back 2 moves, nothing to undo:\n%s", out)
	}
	if !strings.HasSuffix(out, "move 1, White to move\nWhite> nothing to undo\nWhite> Game not finished.\n") {
		t.Errorf("want the start position after the undo:\n%s", out)
	}
	// Between two humans undo takes back one move.
	out, _, err = runCmd(t, lines("1a1-a2", "1a3-b3", "undo", "board", "quit"), "play", "pogo", "--black", "human")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "took back 1 move\n") || !strings.Contains(out, "position: bb,bb,bb/w,-,-/w,ww,ww b\nmove 2, Black to move\nBlack> \n") {
		t.Errorf("output:\n%s", out)
	}
}

func TestPlaySaveAndLoad(t *testing.T) {
	file := filepath.Join(t.TempDir(), "game.txt")
	out, _, err := runCmd(t, lines("1a1-a2", "save "+file, "quit"), "play", "pogo(u=false)", "--black", "random", "--seed", "4")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "saved to "+file) {
		t.Fatalf("output:\n%s", out)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	r, err := record.Parse(string(data))
	if err != nil {
		t.Fatal(err)
	}
	if r.Get("Game") != "pogo(u=false)" || r.Get("Seat1") != "human" || r.Get("Seat2") != "stax:random" ||
		r.Get("Result") != "*" || len(r.Moves) != 2 || r.Moves[0] != "1a1-a2" {
		t.Fatalf("saved record:\n%s", data)
	}

	// Resume: the seats come from the record, the game goes on.
	out, _, err = runCmd(t, lines("moves", "resign"), "play", "--load", file, "--seed", "5")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"White (human) vs Black (stax:random)",
		"Resuming after 2 moves: 1a1-a2 " + r.Moves[1],
		"move 3, White to move",
		"legal moves: ",
		"White resigned",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("resumed output lacks %q:\n%s", want, out)
		}
	}
	// Flags override the record's seats.
	out, _, err = runCmd(t, "", "play", "--load", file, "--white", "random", "--seed", "6")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "White (stax:random) plays") || !strings.Contains(out, "Game over: ") {
		t.Errorf("output:\n%s", out)
	}
	// A finished game shows its result at once.
	fin := filepath.Join(t.TempDir(), "fin.txt")
	if _, _, err := runCmd(t, lines(pogoWin...)+lines("save "+fin), "play", "pogo", "--black", "human", "--save", fin); err != nil {
		t.Fatal(err)
	}
	out, _, err = runCmd(t, "", "play", "--load", fin)
	if err != nil || !strings.Contains(out, "Resuming after 10 moves") || !strings.Contains(out, "Game over: Black wins") {
		t.Errorf("loading a finished game: %v\n%s", err, out)
	}
}

func TestPlayBadInput(t *testing.T) {
	file := filepath.Join(t.TempDir(), "nodir", "x.txt")
	out, _, err := runCmd(t, lines("zz", "1a1-c3", "save", "save "+file, "help"), "play", "pogo", "--black", "human", "--hint", "greedy")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`move "zz": want <count><from>-<to>`,
		`move "1a1-c3": illegal move`,
		"type moves to list the legal moves",
		"save needs a file name",
		"could not save: ",
		"play a move in the game's notation, e.g. 1a1-b1",
		"every move ranked with its verdict (exact in Pogo, else by the greedy level's search)",
		"Game not finished.",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestPlayUsageErrors(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.txt")
	if err := os.WriteFile(bad, []byte("[Game \"pogo\"]\n\n1. 1a1-a2 1a1-a2 *\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"play"}, "want one game spec"},
		{[]string{"play", "pogo", "diam"}, "want one game spec"},
		{[]string{"play", "chess"}, "unknown game"},
		{[]string{"play", "pogo", "--black", "nobody"}, "valid levels are"},
		{[]string{"play", "pogo", "--seat3", "human"}, "only 2 players"},
		{[]string{"play", "diam(players=4)", "--black", "human"}, "use --seat1..--seat4"},
		{[]string{"play", "pogo", "--white", "human", "--seat1", "human"}, "not both"},
		{[]string{"play", "pogo", "--color", "pink"}, "want auto, always or never"},
		{[]string{"play", "pogo", "--load", bad}, "no spec"},
		{[]string{"play", "--load", bad}, "ply 2, move 1a1-a2"},
		{[]string{"play", "--load", filepath.Join(t.TempDir(), "missing.txt")}, "no such file"},
		{[]string{"play", "pogo", "--pos", "x"}, "position"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args[1:], " "), func(t *testing.T) {
			_, _, err := runCmd(t, "", tt.args...)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("stax %s: %v, want an error with %q", strings.Join(tt.args, " "), err, tt.want)
			}
		})
	}
}

func TestPlayColour(t *testing.T) {
	for _, tt := range []struct {
		flag string
		want bool
	}{{"always", true}, {"never", false}, {"auto", false}} {
		out, _, err := runCmd(t, "", "play", "pogo", "--color", tt.flag)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(out, "\x1b["); got != tt.want {
			t.Errorf("--color=%s: escapes %v, want %v", tt.flag, got, tt.want)
		}
	}
}

// TestPlayRandomness checks that unseeded games differ and seeded ones
// repeat: the computer players draw from a real random source unless
// --seed asks for a reproducible game.
func TestPlayRandomness(t *testing.T) {
	game := func(seed ...string) string {
		args := append([]string{"play", "pogo", "--white", "random", "--black", "random", "--color", "never"}, seed...)
		out, _, err := runCmd(t, "", args...)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	// Two random Pogo games coincide with a negligible probability; three
	// unseeded games all equal would mean a fixed seed.
	a, b, c := game(), game(), game()
	if a == b && b == c {
		t.Errorf("three unseeded games are identical:\n%s", a)
	}
	if x, y := game("--seed", "42"), game("--seed", "42"); x != y {
		t.Errorf("two games with --seed 42 differ:\n%s\n---\n%s", x, y)
	}
}

// TestPlayInterruptSaves checks that Ctrl-C at the prompt ends the game
// like quit: the --save file is written.
func TestPlayInterruptSaves(t *testing.T) {
	file := filepath.Join(t.TempDir(), "game.txt")
	in, w := io.Pipe() // input that never ends, as a terminal's
	defer w.Close()
	var out syncBuffer
	intr := make(chan os.Signal, 1)
	done := make(chan error, 1)
	go func() {
		done <- run(&env{stdin: in, stdout: &out, stderr: io.Discard, interrupt: intr}, []string{"play", "pogo", "--black", "human", "--save", file})
	}()
	io.WriteString(w, "1a1-a2\n")
	// The move is played and the prompt waits for Black's.
	for deadline := time.Now().Add(10 * time.Second); !strings.HasSuffix(out.String(), "Black> "); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no prompt for Black's move after 1a1-a2:\n%s", out.String())
		}
	}
	intr <- os.Interrupt
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Ctrl-C at the prompt did not end stax play")
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("no --save file after Ctrl-C: %v\n%s", err, out.String())
	}
	if !strings.Contains(string(data), "1a1-a2") || !strings.Contains(out.String(), "Game not finished.") {
		t.Errorf("record %q, output:\n%s", data, out.String())
	}
}

// TestPlayCommands checks history, undo and redo, level and swap.
func TestPlayCommands(t *testing.T) {
	out, _, err := runCmd(t, lines("history", "1a1-a2", "undo", "redo", "history", "level hard", "level", "swap", "quit"),
		"play", "pogo", "--black", "random", "--seed", "4", "--color", "never")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"no moves yet",
		"took back 2 moves",
		"replayed 2 moves",
		"  1. White 1a1-a2\n  2. Black ",
		"White (human) vs Black (stax:hard)",
		"White (stax:hard) vs Black (human)",
		"White (stax:hard) plays ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	out, _, _ = runCmd(t, lines("redo", "level godlike", "quit"), "play", "pogo", "--black", "random", "--color", "never")
	for _, want := range []string{"nothing to redo", `unknown level "godlike"`} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
