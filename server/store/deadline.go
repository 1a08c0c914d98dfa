package store

import (
	"context"
	"time"
)

// WithDeadline returns s with a deadline of d on each call, so that a
// database that stalls (a held lock, a frozen server) fails the call in
// time instead of holding a game, and a player, with it. Watch, which lasts,
// and the walks over every game (Unfinished, List), which may take long,
// keep their caller's context.
func WithDeadline(s Store, d time.Duration) Store { return deadlined{s, d} }

// deadlined is the Store of WithDeadline.
type deadlined struct {
	s Store
	d time.Duration
}

func (x deadlined) Close() error { return x.s.Close() }

func (x deadlined) Watch(ctx context.Context, fn func(Event)) error { return x.s.Watch(ctx, fn) }

func (x deadlined) Create(ctx context.Context, g *Game) error {
	ctx, cancel := context.WithTimeout(ctx, x.d)
	defer cancel()
	return x.s.Create(ctx, g)
}

func (x deadlined) Get(ctx context.Context, id string) (*Game, error) {
	ctx, cancel := context.WithTimeout(ctx, x.d)
	defer cancel()
	return x.s.Get(ctx, id)
}

func (x deadlined) AppendMove(ctx context.Context, id string, ply int, move string, at time.Time, end *End) error {
	ctx, cancel := context.WithTimeout(ctx, x.d)
	defer cancel()
	return x.s.AppendMove(ctx, id, ply, move, at, end)
}

func (x deadlined) Join(ctx context.Context, id string, seat int, tokenHash, name, user string, at time.Time) error {
	ctx, cancel := context.WithTimeout(ctx, x.d)
	defer cancel()
	return x.s.Join(ctx, id, seat, tokenHash, name, user, at)
}

func (x deadlined) TakeBack(ctx context.Context, id string, ply int) error {
	ctx, cancel := context.WithTimeout(ctx, x.d)
	defer cancel()
	return x.s.TakeBack(ctx, id, ply)
}

func (x deadlined) Finish(ctx context.Context, id string, ply int, end End, at time.Time) error {
	ctx, cancel := context.WithTimeout(ctx, x.d)
	defer cancel()
	return x.s.Finish(ctx, id, ply, end, at)
}

func (x deadlined) Unfinished(ctx context.Context) ([]*Game, error) {
	return x.s.Unfinished(ctx)
}

func (x deadlined) Idle(ctx context.Context, before time.Time, limit int) ([]string, error) {
	ctx, cancel := context.WithTimeout(ctx, x.d)
	defer cancel()
	return x.s.Idle(ctx, before, limit)
}

func (x deadlined) Recent(ctx context.Context, limit int, status string) ([]*Game, error) {
	ctx, cancel := context.WithTimeout(ctx, x.d)
	defer cancel()
	return x.s.Recent(ctx, limit, status)
}

func (x deadlined) List(ctx context.Context, after string, limit int) ([]*Game, error) {
	return x.s.List(ctx, after, limit)
}

func (x deadlined) Announce(ctx context.Context, ev Event) error {
	ctx, cancel := context.WithTimeout(ctx, x.d)
	defer cancel()
	return x.s.Announce(ctx, ev)
}

func (x deadlined) AddJob(ctx context.Context, id string, ply int, client string, delay time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, x.d)
	defer cancel()
	return x.s.AddJob(ctx, id, ply, client, delay)
}

func (x deadlined) ClaimJob(ctx context.Context, owner string, lease time.Duration, perClient int) (job *Job, wait time.Duration, err error) {
	ctx, cancel := context.WithTimeout(ctx, x.d)
	defer cancel()
	return x.s.ClaimJob(ctx, owner, lease, perClient)
}

func (x deadlined) DoneJob(ctx context.Context, id int64, owner string) error {
	ctx, cancel := context.WithTimeout(ctx, x.d)
	defer cancel()
	return x.s.DoneJob(ctx, id, owner)
}

func (x deadlined) ReleaseJob(ctx context.Context, id int64, owner string) error {
	ctx, cancel := context.WithTimeout(ctx, x.d)
	defer cancel()
	return x.s.ReleaseJob(ctx, id, owner)
}

func (x deadlined) Jobs(ctx context.Context, id string) ([]Job, error) {
	ctx, cancel := context.WithTimeout(ctx, x.d)
	defer cancel()
	return x.s.Jobs(ctx, id)
}

func (x deadlined) Ping(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, x.d)
	defer cancel()
	return x.s.Ping(ctx)
}

func (x deadlined) Beat(ctx context.Context, instance string, at time.Time, gone bool) error {
	ctx, cancel := context.WithTimeout(ctx, x.d)
	defer cancel()
	return x.s.Beat(ctx, instance, at, gone)
}

func (x deadlined) Beats(ctx context.Context) ([]Beat, error) {
	ctx, cancel := context.WithTimeout(ctx, x.d)
	defer cancel()
	return x.s.Beats(ctx)
}

func (x deadlined) ForgetBeats(ctx context.Context, before time.Time) error {
	ctx, cancel := context.WithTimeout(ctx, x.d)
	defer cancel()
	return x.s.ForgetBeats(ctx, before)
}

func (x deadlined) AddOutage(ctx context.Context, o Outage) error {
	ctx, cancel := context.WithTimeout(ctx, x.d)
	defer cancel()
	return x.s.AddOutage(ctx, o)
}

func (x deadlined) Outages(ctx context.Context, after time.Time) ([]Outage, error) {
	ctx, cancel := context.WithTimeout(ctx, x.d)
	defer cancel()
	return x.s.Outages(ctx, after)
}

// UsersWithDeadline returns u with a deadline of d on each call (see
// WithDeadline).
func UsersWithDeadline(u Users, d time.Duration) Users { return deadlinedUsers{u, d} }

// deadlinedUsers is the Users of UsersWithDeadline.
type deadlinedUsers struct {
	u Users
	d time.Duration
}

func (x deadlinedUsers) CreateUser(ctx context.Context, u *User) error {
	ctx, cancel := context.WithTimeout(ctx, x.d)
	defer cancel()
	return x.u.CreateUser(ctx, u)
}

func (x deadlinedUsers) UserByName(ctx context.Context, name string) (*User, error) {
	ctx, cancel := context.WithTimeout(ctx, x.d)
	defer cancel()
	return x.u.UserByName(ctx, name)
}

func (x deadlinedUsers) UserByID(ctx context.Context, id string) (*User, error) {
	ctx, cancel := context.WithTimeout(ctx, x.d)
	defer cancel()
	return x.u.UserByID(ctx, id)
}

func (x deadlinedUsers) SetPassword(ctx context.Context, userID, hash string) error {
	ctx, cancel := context.WithTimeout(ctx, x.d)
	defer cancel()
	return x.u.SetPassword(ctx, userID, hash)
}

func (x deadlinedUsers) DeleteUser(ctx context.Context, userID, anonymous string) error {
	ctx, cancel := context.WithTimeout(ctx, x.d)
	defer cancel()
	return x.u.DeleteUser(ctx, userID, anonymous)
}

func (x deadlinedUsers) CreateSession(ctx context.Context, s *Session) error {
	ctx, cancel := context.WithTimeout(ctx, x.d)
	defer cancel()
	return x.u.CreateSession(ctx, s)
}

func (x deadlinedUsers) Session(ctx context.Context, tokenHash string) (*Session, error) {
	ctx, cancel := context.WithTimeout(ctx, x.d)
	defer cancel()
	return x.u.Session(ctx, tokenHash)
}

func (x deadlinedUsers) DeleteSession(ctx context.Context, tokenHash string) error {
	ctx, cancel := context.WithTimeout(ctx, x.d)
	defer cancel()
	return x.u.DeleteSession(ctx, tokenHash)
}

func (x deadlinedUsers) DeleteSessions(ctx context.Context, userID, keep string) error {
	ctx, cancel := context.WithTimeout(ctx, x.d)
	defer cancel()
	return x.u.DeleteSessions(ctx, userID, keep)
}

func (x deadlinedUsers) DeleteExpiredSessions(ctx context.Context, t time.Time) error {
	ctx, cancel := context.WithTimeout(ctx, x.d)
	defer cancel()
	return x.u.DeleteExpiredSessions(ctx, t)
}

func (x deadlinedUsers) GamesOf(ctx context.Context, userID string, limit int, status string) ([]*Game, error) {
	ctx, cancel := context.WithTimeout(ctx, x.d)
	defer cancel()
	return x.u.GamesOf(ctx, userID, limit, status)
}

// RatingsWithDeadline returns u with a deadline of d on each call (see
// WithDeadline).
func RatingsWithDeadline(u Ratings, d time.Duration) Ratings { return deadlinedRatings{u, d} }

// deadlinedRatings is the Ratings of RatingsWithDeadline.
type deadlinedRatings struct {
	u Ratings
	d time.Duration
}

func (x deadlinedRatings) Ratings(ctx context.Context, userID string) ([]Rating, error) {
	ctx, cancel := context.WithTimeout(ctx, x.d)
	defer cancel()
	return x.u.Ratings(ctx, userID)
}

func (x deadlinedRatings) Leaderboard(ctx context.Context, pool string, maxDeviation float64, activeSince time.Time, limit int) ([]Rating, error) {
	ctx, cancel := context.WithTimeout(ctx, x.d)
	defer cancel()
	return x.u.Leaderboard(ctx, pool, maxDeviation, activeSince, limit)
}

func (x deadlinedRatings) RatingHistory(ctx context.Context, userID, pool string) ([]RatingPoint, error) {
	ctx, cancel := context.WithTimeout(ctx, x.d)
	defer cancel()
	return x.u.RatingHistory(ctx, userID, pool)
}

func (x deadlinedRatings) Rate(ctx context.Context, gameID string, at time.Time, ratings []Rating) error {
	ctx, cancel := context.WithTimeout(ctx, x.d)
	defer cancel()
	return x.u.Rate(ctx, gameID, at, ratings)
}

func (x deadlinedRatings) Unrated(ctx context.Context, limit int) ([]*Game, error) {
	ctx, cancel := context.WithTimeout(ctx, x.d)
	defer cancel()
	return x.u.Unrated(ctx, limit)
}

func (x deadlinedRatings) RatedGames(ctx context.Context, after string, limit int) ([]RatedGame, error) {
	ctx, cancel := context.WithTimeout(ctx, x.d)
	defer cancel()
	return x.u.RatedGames(ctx, after, limit)
}

// SeeksWithDeadline returns u with a deadline of d on each call (see
// WithDeadline).
func SeeksWithDeadline(u Seeks, d time.Duration) Seeks { return deadlinedSeeks{u, d} }

// deadlinedSeeks is the Seeks of SeeksWithDeadline.
type deadlinedSeeks struct {
	u Seeks
	d time.Duration
}

func (x deadlinedSeeks) CreateSeek(ctx context.Context, sk *Seek) error {
	ctx, cancel := context.WithTimeout(ctx, x.d)
	defer cancel()
	return x.u.CreateSeek(ctx, sk)
}

func (x deadlinedSeeks) Seeks(ctx context.Context) ([]*Seek, error) {
	ctx, cancel := context.WithTimeout(ctx, x.d)
	defer cancel()
	return x.u.Seeks(ctx)
}

func (x deadlinedSeeks) GetSeek(ctx context.Context, id string) (*Seek, error) {
	ctx, cancel := context.WithTimeout(ctx, x.d)
	defer cancel()
	return x.u.GetSeek(ctx, id)
}

func (x deadlinedSeeks) TakeSeek(ctx context.Context, id string) error {
	ctx, cancel := context.WithTimeout(ctx, x.d)
	defer cancel()
	return x.u.TakeSeek(ctx, id)
}

func (x deadlinedSeeks) DeleteSeeks(ctx context.Context, userID string) error {
	ctx, cancel := context.WithTimeout(ctx, x.d)
	defer cancel()
	return x.u.DeleteSeeks(ctx, userID)
}

func (x deadlinedSeeks) Present(ctx context.Context, instance string, users []string, until time.Time) error {
	ctx, cancel := context.WithTimeout(ctx, x.d)
	defer cancel()
	return x.u.Present(ctx, instance, users, until)
}

func (x deadlinedSeeks) Leave(ctx context.Context, instance, user string, now time.Time) error {
	ctx, cancel := context.WithTimeout(ctx, x.d)
	defer cancel()
	return x.u.Leave(ctx, instance, user, now)
}

func (x deadlinedSeeks) ExpireSeeks(ctx context.Context, now time.Time) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, x.d)
	defer cancel()
	return x.u.ExpireSeeks(ctx, now)
}

// TokensWithDeadline returns t with a deadline of d on each call (see
// WithDeadline).
func TokensWithDeadline(t Tokens, d time.Duration) Tokens { return deadlinedTokens{t, d} }

// deadlinedTokens is the Tokens of TokensWithDeadline.
type deadlinedTokens struct {
	t Tokens
	d time.Duration
}

func (x deadlinedTokens) CreateToken(ctx context.Context, t *Token) error {
	ctx, cancel := context.WithTimeout(ctx, x.d)
	defer cancel()
	return x.t.CreateToken(ctx, t)
}

func (x deadlinedTokens) TokenByHash(ctx context.Context, hash string) (*Token, error) {
	ctx, cancel := context.WithTimeout(ctx, x.d)
	defer cancel()
	return x.t.TokenByHash(ctx, hash)
}

func (x deadlinedTokens) TokensOf(ctx context.Context, userID string) ([]*Token, error) {
	ctx, cancel := context.WithTimeout(ctx, x.d)
	defer cancel()
	return x.t.TokensOf(ctx, userID)
}

func (x deadlinedTokens) DeleteToken(ctx context.Context, userID, id string) (*Token, error) {
	ctx, cancel := context.WithTimeout(ctx, x.d)
	defer cancel()
	return x.t.DeleteToken(ctx, userID, id)
}

func (x deadlinedTokens) TokenUsed(ctx context.Context, id string, t time.Time) error {
	ctx, cancel := context.WithTimeout(ctx, x.d)
	defer cancel()
	return x.t.TokenUsed(ctx, id, t)
}

func (x deadlinedTokens) SetBot(ctx context.Context, userID string) error {
	ctx, cancel := context.WithTimeout(ctx, x.d)
	defer cancel()
	return x.t.SetBot(ctx, userID)
}

func (x deadlinedTokens) SetBotsRated(ctx context.Context, userID string, accept bool) error {
	ctx, cancel := context.WithTimeout(ctx, x.d)
	defer cancel()
	return x.t.SetBotsRated(ctx, userID, accept)
}

func (x deadlinedTokens) BotSeen(ctx context.Context, userID string, t time.Time) error {
	ctx, cancel := context.WithTimeout(ctx, x.d)
	defer cancel()
	return x.t.BotSeen(ctx, userID, t)
}

func (x deadlinedTokens) Bots(ctx context.Context, limit int) ([]*User, error) {
	ctx, cancel := context.WithTimeout(ctx, x.d)
	defer cancel()
	return x.t.Bots(ctx, limit)
}
