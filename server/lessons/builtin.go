package lessons

// Lesson is a short series of steps that teaches a game, or a variant of
// it, in the words of its rule texts. Its words (title, introduction, each
// step's explanation and goal) are in the interface's catalogues
// (web/static/i18n) under lessons.<ID>., in English, French and Spanish.
type Lesson struct {
	// ID names the lesson in URLs and in the catalogues' keys, e.g.
	// "pogo-u".
	ID string
	// Game is the game's name; Spec the variant its steps play, unless a
	// step names another.
	Game string
	Spec string
	// Steps are the lesson's steps, in order.
	Steps []Step
}

// Step is one step of a lesson: a position and a goal that one move of the
// learner must meet.
type Step struct {
	// ID names the step in the catalogues' keys: lessons.<lesson>.<ID>.
	ID string
	// Spec is the variant of the step when it is not the lesson's.
	Spec string
	// Position is the step's position, in the position text of
	// docs/rules.md; the learner moves for the side to move.
	Position string
	// Goal is what the move must do.
	Goal Goal
	// Wrong are moves the step refuses, some legal but missing the goal,
	// some not legal at all: the tests check that each is refused, with a
	// reason.
	Wrong []string
}

// spec returns the step's variant in lesson l.
func (s Step) spec(l Lesson) string {
	if s.Spec != "" {
		return s.Spec
	}
	return l.Spec
}

// Builtin returns the site's lessons: for each game its basics, then one
// lesson for each option that changes how it is played (docs/lessons.md).
func Builtin() []Lesson {
	return []Lesson{
		{ID: "pogo", Game: "pogo", Spec: "pogo", Steps: []Step{
			{ID: "one", Position: "bb,bb,bb/-,-,-/ww,ww,ww w", Goal: Goal{Count: 1}, Wrong: []string{"2a1-c1", "2b1-b3"}},
			{ID: "two", Position: "bb,bb,bb/-,-,-/ww,ww,ww w", Goal: Goal{Count: 2, To: "b2"}, Wrong: []string{"2b1-b3", "1b1-b2", "2b1-b2"}},
			{ID: "top", Position: "b,b,b/b,ww,b/b,ww,ww w", Goal: Goal{Top: 4}, Wrong: []string{"1b1-b2", "2b2-a3"}},
			{ID: "win", Position: "-,bw,-/-,wbbw,ww/bbw,-,b w", Goal: Goal{Win: true}, Wrong: []string{"2c2-b3", "1b3-a3"}},
		}},
		{ID: "pogo-u", Game: "pogo", Spec: "pogo", Steps: []Step{
			{ID: "u", Position: "-,bb,bw/-,-,-/bww,bb,www w", Goal: Goal{Count: 3, To: "b1"}, Wrong: []string{"1a1-b1", "3a1-c2"}},
			{ID: "no-u", Spec: "pogo(u=false)", Position: "-,bb,bw/-,-,-/bww,bb,www w", Goal: Goal{Count: 3}, Wrong: []string{"3a1-b1", "1a1-b1"}},
		}},
		{ID: "pisola", Game: "pisola", Spec: "pisola", Steps: []Step{
			{ID: "place", Position: "-,-,-,-,-,-/-,-,-,-,-,-/-,-,-,-,-,-/-,-,-,-,-,-/-,-,-,-,-,-/-,-,-,-,-,- w", Goal: Goal{Place: true}, Wrong: []string{"a1+b1", "c3-c4"}},
			{ID: "pile", Position: "b,w,b,w,b,w/w,b,w,b,w,b/b,w,b,w,b,w/w,b,b,bw,w,b/b,w,-,w,b,w/w,b,w,b,w,b w", Goal: Goal{Count: 2, Height: 3}, Wrong: []string{"d3-d4", "e3-e4"}},
			{ID: "lock", Position: "b,w,wbw,-,b,w/w,b,-,b,w,b/b,w,b,w,b,w/w,b,w,b,w,b/b,w,b,w,b,w/w,b,w,b,w,b w", Goal: Goal{Locks: 1}, Wrong: []string{"c6-f6", "a5-a6"}},
			{ID: "end", Position: "-,-,-,-,-,-/-,-,bwwbbw*,-,-,-/-,-,bbw,wwww*,-,b/wbbbwbbb*,-,-,wbwbw*,-,-/-,bwwbbw*,-,-,-,-/-,-,-,bww,-,- w", Goal: Goal{Win: true}, Wrong: []string{"c4-c1", "d1-a1", "b2-b1"}},
		}},
		{ID: "pisola-roofs", Game: "pisola", Spec: "pisola(roofs=true)", Steps: []Step{
			{ID: "roof", Position: "b,w,wbw,-,b,w/w,b,-,b,w,b/b,w,b,w,b,w/w,b,w,b,w,b/b,w,b,w,b,w/w,b,w,b,w,b w", Goal: Goal{Roofs: 1}, Wrong: []string{"c6-f6"}},
			{ID: "six", Position: "-,-,-,wb,bwbw,wbwbb/-,bwbww^,-,-,wbw,-/-,bwbbw^,-,wwbbw^,-,-/-,-,-,bbbw^,-,-/-,-,b,-,ww,-/-,-,-,-,-,- w", Goal: Goal{Win: true, Roofs: 6}, Wrong: []string{"e5-e2", "e2-e4"}},
		}},
		{ID: "diam", Game: "diam", Spec: "diam", Steps: []Step{
			{ID: "place", Position: "r/-/g/-/-/-/-/- 1", Goal: Goal{Place: true, To: "5"}, Wrong: []string{"r@2", "1:1+", "r@3"}},
			{ID: "move", Position: "rg/y/-/-/g/-/-/- 1", Goal: Goal{Count: 2}, Wrong: []string{"2:1+", "y@3"}},
			{ID: "diam", Position: "gr/-/-/r/b/-/y/- 1", Goal: Goal{Win: true}, Wrong: []string{"4:1-", "r@6"}},
			{ID: "careful", Position: "ybg/yr/-/rg/b/g/r/- 1", Goal: Goal{Win: true}, Wrong: []string{"4:1+", "7:1+"}},
		}},
		{ID: "diam-four", Game: "diam", Spec: "diam(players=4)", Steps: []Step{
			{ID: "four", Position: "yr/-/gy/-/b/r/g/y 1", Goal: Goal{Win: true}, Wrong: []string{"6:1+", "y@2"}},
		}},
		{ID: "diam-teams", Game: "diam", Spec: "diam(players=4,teams=true)", Steps: []Step{
			{ID: "partner", Position: "-/gy/-/r/-/b/y/- 1", Goal: Goal{Win: true}, Wrong: []string{"y@6", "7:1+", "4:1+"}},
		}},
		{ID: "diam-drop", Game: "diam", Spec: "diam(drop=any)", Steps: []Step{
			{ID: "empty", Spec: "diam", Position: "gr/-/-/-/b/-/-/- 1", Goal: Goal{Place: true}, Wrong: []string{"r@5", "1:1+"}},
			{ID: "any", Position: "gr/-/-/-/b/-/-/- 1", Goal: Goal{Win: true}, Wrong: []string{"r@3", "y@5"}},
		}},
	}
}
