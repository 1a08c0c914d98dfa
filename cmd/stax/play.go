package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"time"

	"stax/ai"
	"stax/game"
	"stax/game/record"
	"stax/games"
	"stax/games/pogo"
	"stax/search"
)

// defaultLevel is the level of the seats after the first when no flag or
// record names their player.
const defaultLevel = "medium"

// seat is who plays one seat: a human at the prompt, or a computer level.
type seat struct {
	human  bool
	name   string // the human's name, or the level
	player search.Player
}

// who returns the seat as a record's Seat tag writes it, e.g. "human" or
// "stax:hard".
func (s *seat) who() record.Seat {
	if s.human {
		return record.Seat{Kind: record.Human, Name: s.name}
	}
	return record.Seat{Kind: record.Level, Name: s.name}
}

// describe returns the seat for messages, e.g. "alice" or "stax:hard".
func (s *seat) describe() string {
	if s.human && s.name != "" {
		return s.name
	}
	return s.who().String()
}

// session is one game of stax play in progress at the terminal: the game, its seats and the prompt.
type session struct {
	e         *env
	g         game.Game
	h         *game.History
	seats     []*seat
	lines     <-chan inputLine // the lines typed, read in the background
	interrupt chan os.Signal   // Ctrl-C at the prompt
	redo      []game.Move      // the moves last taken back, next first
	colour    bool
	limits    search.Limits
	hintLevel string
	hint      search.Player
	seed      uint64
	ai        ai.Config // the computer players' configuration
	saveFile  string
	date      string
	humans    int
}

func runPlay(e *env, args []string) error {
	fs := newFlags(e, "play")
	var seatFlags [game.MaxPlayers]string
	for i := range seatFlags {
		def := defaultLevel
		if i == 0 {
			def = "human"
		}
		fs.StringVar(&seatFlags[i], fmt.Sprintf("seat%d", i+1), "",
			fmt.Sprintf("who plays seat %d: human, human:NAME or an AI level (default %s, or the record's Seat%d tag with --load)", i+1, def, i+1))
	}
	white := fs.String("white", "", "who plays the first seat of a two-player game (White; player 1 in Diam)")
	black := fs.String("black", "", "who plays the second seat of a two-player game (Black; player 2 in Diam)")
	pos := fs.String("pos", "", "start from this position string")
	load := fs.String("load", "", "resume the game saved in this record `FILE`")
	recordNo := fs.Int("record", 0, "with --load of a file of several records (such as stax match --out writes), the number `N` of the record to play, from 1")
	colour := fs.String("color", "auto", "colour the pieces: auto (when the output is a terminal and NO_COLOR is unset), always or never")
	moveTime := fs.Duration("time", 0, "thinking time per computer move (default: the level's own budget)")
	hint := fs.String("hint", "strongest", "the level that answers hint")
	seed := fs.Uint64("seed", 0, "seed the computer players' randomness, for reproducible games (0: random)")
	save := fs.String("save", "", "write the game's record to this `FILE` when it ends or is quit")
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if *white != "" {
		if seatFlags[0] != "" {
			return &usageError{"give --white or --seat1, not both"}
		}
		seatFlags[0] = *white
	}
	if *black != "" {
		if seatFlags[1] != "" {
			return &usageError{"give --black or --seat2, not both"}
		}
		seatFlags[1] = *black
	}

	tables := newTables(e.stderr)
	defer tables.Close()
	p := &session{e: e, limits: search.Limits{Time: *moveTime}, hintLevel: *hint, seed: *seed,
		ai: ai.Config{Tables: tables}, saveFile: *save, date: time.Now().Format("2006.01.02")}
	switch *colour {
	case "auto":
		p.colour = isTerminal(e.stdout) && os.Getenv("NO_COLOR") == ""
	case "always":
		p.colour = true
	case "never":
	default:
		return &usageError{fmt.Sprintf("--color=%s: want auto, always or never", *colour)}
	}

	var rec *record.Record
	switch {
	case *load != "":
		if len(rest) > 0 || *pos != "" {
			return &usageError{"--load takes the game and position from the record; give no spec and no --pos with it"}
		}
		data, err := os.ReadFile(*load)
		if err != nil {
			return err
		}
		rec, err = pickRecord(*load, string(data), *recordNo)
		if err != nil {
			return err
		}
		p.h, err = rec.Replay(games.All())
		if err != nil {
			return fmt.Errorf("%s: %w", *load, err)
		}
		p.g = p.h.Game()
		if d := rec.Get(record.TagDate); d != "" {
			p.date = d
		}
	case len(rest) == 1:
		g, start, err := loadPosition(rest[0], *pos)
		if err != nil {
			return err
		}
		p.g, p.h = g, game.NewHistory(g, start)
	default:
		return &usageError{"want one game spec, e.g. stax play pogo --black hard, or --load FILE"}
	}

	n := p.g.Players()
	if n != 2 && (*white != "" || *black != "") {
		return &usageError{fmt.Sprintf("--white and --black name the seats of two-player games; %s has %d players: use --seat1..--seat%d", p.g.Info().Name, n, n)}
	}
	for i := n; i < game.MaxPlayers; i++ {
		if seatFlags[i] != "" {
			return &usageError{fmt.Sprintf("--seat%d: %s has only %d players", i+1, p.g.Info().Name, n)}
		}
	}
	for i := 0; i < n; i++ {
		v := seatFlags[i]
		if v == "" && rec != nil {
			v = fromSeatTag(rec.Get(record.SeatTag(i)))
		}
		if v == "" {
			v = defaultLevel
			if i == 0 {
				v = "human"
			}
		}
		s, err := p.newSeat(i, v)
		if err != nil {
			return &usageError{fmt.Sprintf("seat %d: %v", i+1, err)}
		}
		p.seats = append(p.seats, s)
		if s.human {
			p.humans++
		}
	}
	var levels []string
	for _, s := range p.seats {
		if !s.human {
			levels = append(levels, s.name)
		}
	}
	if err := prepareLevels(context.Background(), p.ai, p.g, levels...); err != nil {
		return err
	}
	done := make(chan struct{})
	defer close(done)
	p.lines = readLines(e.stdin, done)
	p.interrupt = e.interrupt
	if p.interrupt == nil {
		p.interrupt = make(chan os.Signal, 1)
		signal.Notify(p.interrupt, os.Interrupt)
		defer signal.Stop(p.interrupt)
	}
	return p.run()
}

// pickRecord returns record number n (from 1) of a file's text, or its
// only record when n is 0. A file of several records without n is an
// error that lists them, so that the user can choose.
func pickRecord(file, text string, n int) (*record.Record, error) {
	recs, err := record.ParseAll(text)
	if err != nil {
		return nil, fmt.Errorf("%s:%w", file, err)
	}
	switch {
	case len(recs) == 0:
		return nil, fmt.Errorf("%s: no game record in the file", file)
	case n < 0 || n > len(recs):
		return nil, &usageError{fmt.Sprintf("--record %d: %s holds %d records; want 1 to %d", n, file, len(recs), len(recs))}
	case n > 0:
		return recs[n-1], nil
	case len(recs) == 1:
		return recs[0], nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s holds %d game records; choose one with --record N:", file, len(recs))
	for i, r := range recs {
		fmt.Fprintf(&b, "\n  %3d  %s", i+1, describeRecord(r))
	}
	return nil, &usageError{b.String()}
}

// describeRecord sums up a record on one line: its game, seats, result and
// round, e.g. "pogo  hard vs easy  1-0  round 3".
func describeRecord(r *record.Record) string {
	var seats []string
	for i := range r.Players() {
		v := r.Get(record.SeatTag(i))
		if v == "" {
			v = "?"
		}
		seats = append(seats, v)
	}
	out := r.Get(record.TagGame) + "  " + strings.Join(seats, " vs ")
	if res := r.Get(record.TagResult); res != "" {
		out += "  " + res
	}
	if round := r.Get("Round"); round != "" {
		out += "  round " + round
	}
	return out
}

// fromSeatTag turns a record's Seat tag back into a seat flag: "stax:hard"
// becomes "hard"; "human" and "human:NAME" stay; anything else (another
// program, a tag of an older match record) is played by a human here.
func fromSeatTag(v string) string {
	if v == "" {
		return ""
	}
	seat, err := record.ParseSeat(v)
	switch {
	case err != nil || seat.Kind == record.Engine:
		return "human"
	case seat.Kind == record.Level:
		return seat.Name
	}
	return seat.String()
}

// newSeat makes seat i's player from a flag value.
func (p *session) newSeat(i int, v string) (*seat, error) {
	if who, err := record.ParseSeat(v); err == nil && who.Kind == record.Human {
		return &seat{human: true, name: who.Name}, nil
	}
	v = strings.ToLower(v)
	pl, err := p.newAI(v, uint64(i+1))
	if err != nil {
		return nil, fmt.Errorf("%v (or human)", err)
	}
	return &seat{name: v, player: pl}, nil
}

// newAI returns a player of the given level, seeded when --seed is set.
func (p *session) newAI(level string, salt uint64) (search.Player, error) {
	if p.seed != 0 {
		return p.ai.NewSeeded(p.g, level, p.seed*0x9e3779b97f4a7c15+salt)
	}
	return p.ai.New(p.g, level)
}

// isTerminal reports whether w is a character device, such as a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// errQuit ends the game loop at the player's request.
var errQuit = errors.New("quit")

// run plays until the game ends, a human quits, or the input ends.
func (p *session) run() error {
	out := p.e.stdout
	fmt.Fprintf(out, "%s: %s", p.g.Info().Title, p.seatsLine())
	if p.humans > 0 {
		fmt.Fprint(out, ". Type help for the commands")
	}
	fmt.Fprintln(out, ".")
	if p.h.Ply() > 0 {
		fmt.Fprintf(out, "Resuming after %d moves: %s\n", p.h.Ply(), strings.Join(p.h.Notation(), " "))
	}
	p.show()
	for !p.h.Over() {
		s := p.seats[p.h.State().ToMove()]
		var err error
		if s.human {
			err = p.humanTurn()
		} else {
			err = p.aiTurn(s)
		}
		if errors.Is(err, errQuit) || errors.Is(err, io.EOF) {
			if errors.Is(err, io.EOF) {
				fmt.Fprintln(out)
			}
			fmt.Fprintln(out, "Game not finished.")
			return p.autosave()
		}
		if err != nil {
			return err
		}
	}
	o := p.h.Outcome()
	fmt.Fprintf(out, "Game over: %s. Result %s.\n", o.Describe(p.g), o.ResultString())
	return p.autosave()
}

// seatsLine names who plays each seat, e.g. "White (human) vs Black
// (stax:hard)".
func (p *session) seatsLine() string {
	parts := make([]string, len(p.seats))
	for i, s := range p.seats {
		parts[i] = fmt.Sprintf("%s (%s)", p.g.PlayerName(i), s.describe())
	}
	return strings.Join(parts, " vs ")
}

// show draws the board and says whose turn it is.
func (p *session) show() {
	out := p.e.stdout
	s := p.h.State()
	fmt.Fprintln(out)
	var last []int
	if before, m, ok := p.h.Last(); ok {
		if v, ok := before.(game.Viewer); ok {
			last = v.ViewMove(m).Cells()
		}
	}
	drawBoard(out, s, last, p.colour)
	fmt.Fprintf(out, "position: %s\n", s.String())
	if !p.h.Over() {
		fmt.Fprintf(out, "move %d, %s to move\n", p.h.Ply()+1, p.g.PlayerName(s.ToMove()))
	}
}

// aiTurn lets a computer seat move; a computer that gives no legal move
// forfeits.
func (p *session) aiTurn(s *seat) error {
	pos := search.PositionOf(p.h)
	mover := pos.State.ToMove()
	ctx, stop := thinking()
	res, err := search.Ask(ctx, s.player, pos, p.limits, nil)
	stop()
	p.drainInterrupt()
	if err != nil {
		p.h.Resign(mover, game.ByForfeit, fmt.Sprintf("%s failed: %v", s.describe(), err))
		fmt.Fprintf(p.e.stdout, "%s (%s) could not move: %v\n", p.g.PlayerName(mover), s.describe(), err)
		return nil
	}
	text := pos.State.FormatMove(res.Move)
	if err := p.h.PlayMove(res.Move); err != nil {
		return err
	}
	p.played(res.Move)
	fmt.Fprintf(p.e.stdout, "%s (%s) plays %s\n", p.g.PlayerName(mover), s.describe(), text)
	p.show()
	return nil
}

// thinking returns the context of a computer's search: an interrupt
// (Ctrl-C) while it thinks makes it move at once with the best move found
// so far, instead of ending the program.
func thinking() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt)
}

// humanTurn reads commands until the human moves, resigns or quits.
func (p *session) humanTurn() error {
	out := p.e.stdout
	for {
		mover := p.h.State().ToMove()
		fmt.Fprintf(out, "%s> ", p.g.PlayerName(mover))
		var in inputLine
		select {
		case l, ok := <-p.lines:
			if !ok {
				return io.EOF
			}
			in = l
		case <-p.interrupt:
			fmt.Fprintln(out)
			return errQuit
		}
		if in.err != nil {
			return in.err
		}
		line := strings.TrimSpace(in.text)
		cmd, arg, _ := strings.Cut(line, " ")
		arg = strings.TrimSpace(arg)
		switch strings.ToLower(cmd) {
		case "":
		case "help", "?":
			p.help()
		case "moves":
			p.listMoves()
		case "board", "show":
			p.show()
		case "undo":
			if p.undo() {
				p.show()
			}
		case "redo":
			if p.redoMoves() {
				p.show()
				return nil
			}
		case "history":
			p.history()
		case "level":
			p.setLevel(arg)
		case "swap":
			p.swap()
			return nil
		case "hint":
			p.giveHint()
		case "save":
			if arg == "" {
				fmt.Fprintln(out, "save needs a file name, e.g. save game.txt")
				continue
			}
			if err := p.save(arg); err != nil {
				fmt.Fprintf(out, "could not save: %v\n", err)
				continue
			}
			fmt.Fprintf(out, "saved to %s\n", arg)
		case "resign":
			p.h.Resign(mover, game.ByResignation, p.g.PlayerName(mover)+" resigned")
			return nil
		case "quit", "exit":
			return errQuit
		default:
			if err := p.h.Play(line); err != nil {
				fmt.Fprintf(out, "%v; type moves to list the legal moves, help for the commands\n", err)
				continue
			}
			p.played(p.h.Moves()[p.h.Ply()-1])
			fmt.Fprintf(out, "%s plays %s\n", p.g.PlayerName(mover), p.h.Notation()[p.h.Ply()-1])
			p.show()
			return nil
		}
	}
}

func (p *session) help() {
	fmt.Fprint(p.e.stdout, `Commands:
  <move>     play a move in the game's notation, e.g. `+p.exampleMove()+`
  moves      list the legal moves
  undo       take back your last move (and the computer's reply)
  redo       play again the moves undo took back
  history    list the moves played so far
  level L    let the computer seats play at level L (level alone: show them)
  swap       exchange the seats: you take the next seat's pieces
  hint       every move ranked with its verdict (exact in Pogo, else by the `+p.hintLevel+` level's search)
  board      draw the board again
  save FILE  save the game as a record; stax play --load FILE resumes it
  resign     give up the game
  quit       leave without finishing (the game is lost unless saved)
`)
}

// exampleMove returns a legal move of the position, for the help text.
func (p *session) exampleMove() string {
	s := p.h.State()
	if ms := s.Legal(nil); len(ms) > 0 {
		return s.FormatMove(ms[0])
	}
	return "a move"
}

func (p *session) listMoves() {
	s := p.h.State()
	ms := s.Legal(nil)
	names := make([]string, len(ms))
	for i, m := range ms {
		names[i] = s.FormatMove(m)
	}
	fmt.Fprintf(p.e.stdout, "%d legal moves: %s\n", len(ms), strings.Join(names, " "))
}

// undo takes back moves to the previous turn of a human player: with a
// computer opponent, the human's last move and the computer's replies.
func (p *session) undo() bool {
	target := -1
	s := p.h.Start()
	for ply, m := range p.h.Moves() {
		if p.seats[s.ToMove()].human {
			target = ply
		}
		s.Apply(m)
	}
	if target < 0 {
		fmt.Fprintln(p.e.stdout, "nothing to undo")
		return false
	}
	n := p.h.Ply() - target
	var undone []game.Move
	for p.h.Ply() > target {
		undone = append(undone, p.h.Moves()[p.h.Ply()-1])
		p.h.Undo()
	}
	slices.Reverse(undone)
	p.redo = append(undone, p.redo...)
	if n == 1 {
		fmt.Fprintln(p.e.stdout, "took back 1 move")
	} else {
		fmt.Fprintf(p.e.stdout, "took back %d moves\n", n)
	}
	return true
}

// drainInterrupt forgets a Ctrl-C that stopped a computer's thinking, so
// that it does not also end the game at the next prompt.
func (p *session) drainInterrupt() {
	select {
	case <-p.interrupt:
	default:
	}
}

// played notes that m was played: it keeps the moves to redo when m is
// the next of them, and drops them otherwise.
func (p *session) played(m game.Move) {
	if len(p.redo) > 0 && p.redo[0] == m {
		p.redo = p.redo[1:]
		return
	}
	p.redo = nil
}

// redoMoves plays again the moves taken back by undo, up to the next turn
// of a human (at least one move); it reports whether it played any.
func (p *session) redoMoves() bool {
	if len(p.redo) == 0 {
		fmt.Fprintln(p.e.stdout, "nothing to redo")
		return false
	}
	n := 0
	for len(p.redo) > 0 && (n == 0 || !p.seats[p.h.State().ToMove()].human) && !p.h.Over() {
		m := p.redo[0]
		if err := p.h.PlayMove(m); err != nil {
			p.redo = nil
			break
		}
		p.redo = p.redo[1:]
		n++
	}
	if n == 1 {
		fmt.Fprintln(p.e.stdout, "replayed 1 move")
	} else {
		fmt.Fprintf(p.e.stdout, "replayed %d moves\n", n)
	}
	return n > 0
}

// history lists the moves played so far, numbered, with their players.
func (p *session) history() {
	out := p.e.stdout
	if p.h.Ply() == 0 {
		fmt.Fprintln(out, "no moves yet")
		return
	}
	s := p.h.Start()
	for i, m := range p.h.Moves() {
		fmt.Fprintf(out, "%3d. %s %s\n", i+1, p.g.PlayerName(s.ToMove()), s.FormatMove(m))
		s.Apply(m)
	}
}

// setLevel gives every computer seat a player of the level; without a
// level it says who plays each seat.
func (p *session) setLevel(level string) {
	out := p.e.stdout
	if level == "" {
		fmt.Fprintf(out, "%s; level LEVEL changes the computer seats' level\n", p.seatsLine())
		return
	}
	level = strings.ToLower(level)
	changed := 0
	for i, s := range p.seats {
		if s.human {
			continue
		}
		pl, err := p.newAI(level, uint64(i+1))
		if err != nil {
			fmt.Fprintf(out, "%v\n", err)
			return
		}
		s.name, s.player = level, pl
		changed++
	}
	if changed == 0 {
		fmt.Fprintln(out, "no computer seat in this game")
		return
	}
	fmt.Fprintf(out, "%s\n", p.seatsLine())
}

// swap moves every seat's player to the previous seat, so that a human
// takes over the pieces of the seat after theirs (in a two-player game,
// the two sides exchange).
func (p *session) swap() {
	p.seats = append(p.seats[1:], p.seats[0])
	fmt.Fprintf(p.e.stdout, "%s\n", p.seatsLine())
}

// inputLine is one line typed at the prompt, or the error that ended the
// input.
type inputLine struct {
	text string
	err  error
}

// readLines reads r's lines in the background, so that the prompt can
// also wait for Ctrl-C. The channel is closed at the end of the input
// (after a line with the error, if reading failed); the reader stops
// sending when done is closed.
func readLines(r io.Reader, done <-chan struct{}) <-chan inputLine {
	ch := make(chan inputLine)
	go func() {
		defer close(ch)
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			select {
			case ch <- inputLine{text: sc.Text()}:
			case <-done:
				return
			}
		}
		if err := sc.Err(); err != nil {
			select {
			case ch <- inputLine{err: err}:
			case <-done:
			}
		}
	}()
	return ch
}

// giveHint lists every legal move ranked with its verdict: exact from the
// table in Pogo, else from a search within the hint level's budget.
func (p *session) giveHint() {
	out := p.e.stdout
	pos := search.PositionOf(p.h)
	ctx, stop := thinking()
	defer func() { stop(); p.drainInterrupt() }()
	if pg, ok := p.g.(*pogo.Game); ok && p.ai.Tables != nil {
		if _, err := p.ai.Tables.Wait(ctx, pg.U()); err != nil {
			fmt.Fprintf(out, "no exact hint: %v\n", err)
		}
	}
	lim := ai.Budget(p.g, p.hintLevel)
	if lim.Time == 0 && lim.Depth == 0 {
		lim.Time = max(p.limits.Time, time.Second)
	}
	a, err := p.ai.Analyze(ctx, pos, search.AnalyzeOptions{Time: lim.Time, Depth: lim.Depth, Prove: true})
	if err != nil {
		fmt.Fprintf(out, "no hint: %v\n", err)
		return
	}
	s := pos.State
	how := "exact, from the table"
	if !a.Exact {
		how = fmt.Sprintf("by the %s level's search: the evaluation (depth), or win N, loss N, draw when proven", p.hintLevel)
	}
	fmt.Fprintf(out, "hint: %s (%s; %s)\n", s.FormatMove(a.Best().Move), a.Best().Describe(), how)
	for i, v := range a.Moves {
		fmt.Fprintf(out, "%3d. %-10s %s\n", i+1, s.FormatMove(v.Move), v.Describe())
	}
}

// record returns the game's record with the date and the seats.
func (p *session) record() *record.Record {
	tags := []record.Tag{{Name: record.TagDate, Value: p.date}}
	for i, s := range p.seats {
		tags = append(tags, s.who().Tag(i))
	}
	return record.FromHistory(p.h, tags...)
}

func (p *session) save(file string) error {
	return os.WriteFile(file, []byte(p.record().String()), 0o644)
}

// autosave writes the record to the --save file, if one was given.
func (p *session) autosave() error {
	if p.saveFile == "" {
		return nil
	}
	if err := p.save(p.saveFile); err != nil {
		return err
	}
	fmt.Fprintf(p.e.stdout, "saved to %s\n", p.saveFile)
	return nil
}
