package main

import (
	"bytes"
	"strings"
	"testing"
)

// runCmd runs stax with args and returns its output and error.
func runCmd(t *testing.T, stdin string, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var out, errb bytes.Buffer
	err = run(&env{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errb}, args)
	return out.String(), errb.String(), err
}

func TestPerftCommand(t *testing.T) {
	out, _, err := runCmd(t, "", "perft", "pogo", "3")
	if err != nil {
		t.Fatal(err)
	}
	if want := "perft 1 16\nperft 2 240\nperft 3 3787\n"; out != want {
		t.Errorf("stax perft pogo 3 = %q, want %q", out, want)
	}
	out, _, err = runCmd(t, "", "perft", "pogo(u=false)", "2", "--divide")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "1a1-b1 16\n") || !strings.HasSuffix(out, "moves 16 total 240\n") {
		t.Errorf("stax perft --divide output:\n%s", out)
	}
	out, _, err = runCmd(t, "", "perft", "--pos", "b,-,wbb/bw,w,-/ww,bw,b w", "pogo", "1")
	if err != nil || out != "perft 1 21\n" {
		t.Errorf("stax perft --pos: %q, %v", out, err)
	}
}

func TestMovesCommand(t *testing.T) {
	out, _, err := runCmd(t, "", "moves", "pogo")
	if err != nil {
		t.Fatal(err)
	}
	if n := len(strings.Fields(out)); n != 16 || !strings.Contains(out, "2b1-c2") {
		t.Errorf("stax moves pogo listed %d moves: %q", n, out)
	}
	out, _, err = runCmd(t, "", "moves", "pogo", "--pos", "-,-,bbbbbbwwwww/-,-,-/w,-,- b")
	if err != nil || !strings.Contains(out, "White wins") {
		t.Errorf("moves of a finished game: %q, %v", out, err)
	}
}

func TestGamesCommand(t *testing.T) {
	out, _, err := runCmd(t, "", "games")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"pogo", "maxplies", "default 400"} {
		if !strings.Contains(out, want) {
			t.Errorf("stax games output lacks %q:\n%s", want, out)
		}
	}
}

func TestErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
		code int
	}{
		{nil, "missing command", 2},
		{[]string{"fly"}, `unknown command "fly"`, 2},
		{[]string{"perft", "pogo"}, "want a game spec and a depth", 2},
		{[]string{"perft", "pogo", "x"}, `depth "x": want an integer`, 2},
		{[]string{"perft", "chess", "2"}, `unknown game "chess"`, 1},
		{[]string{"perft", "pogo(u=2)", "2"}, "want true or false", 1},
		{[]string{"perft", "pogo", "2", "--pos", "bb w"}, "want 3 separated by /", 1},
		{[]string{"moves", "pogo", "--bogus"}, "unknown flag --bogus", 2},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			_, _, err := runCmd(t, "", tt.args...)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error = %v, want it to mention %q", err, tt.want)
			}
			if c := exitCode(err); c != tt.code {
				t.Errorf("exit code %d, want %d", c, tt.code)
			}
		})
	}
}
