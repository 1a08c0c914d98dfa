package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"stax/ai"
	"stax/bot"
	"stax/game"
	"stax/games"
	"stax/search"
	"stax/server/account"
	"stax/server/httpx"
	"stax/server/store"
)

// houseBotPrefix starts the names of the house bots' accounts: stax-easy
// plays the easy level. Names that start with stax are reserved, so that
// nobody signs up as one.
const houseBotPrefix = "stax-"

// houseBotToken describes the token a server makes for its house bot, so
// that the next start replaces it.
const houseBotToken = "house bot (stax serve --house-bots)"

// defaultHouseGames is how many games a house bot plays at once unless
// --house-bot-games says otherwise.
const defaultHouseGames = 4

// houseLevels returns the levels every game of the server offers, the
// ones a house bot may play.
func houseLevels(levels ai.Config) []string {
	var common []string
	for i, info := range games.All() {
		g, err := info.Variant(nil)
		if err != nil {
			continue
		}
		ls := levels.Levels(g)
		if i == 0 {
			common = ls
			continue
		}
		common = slices.DeleteFunc(common, func(l string) bool { return !slices.Contains(ls, l) })
	}
	return common
}

// parseHouseBots parses --house-bots: levels separated by commas, each
// offered for every game.
func parseHouseBots(list string, levels ai.Config) ([]string, error) {
	if strings.TrimSpace(list) == "" {
		return nil, nil
	}
	valid := houseLevels(levels)
	var out []string
	for _, l := range strings.Split(list, ",") {
		l = strings.ToLower(strings.TrimSpace(l))
		if !slices.Contains(valid, l) {
			return nil, &usageError{fmt.Sprintf("--house-bots %q: level %q; want levels every game offers, separated by commas: %s", list, l, strings.Join(valid, ", "))}
		}
		if !slices.Contains(out, l) {
			out = append(out, l)
		}
	}
	return out, nil
}

// houseBotAccount is a house bot's account: its level, name and token.
type houseBotAccount struct {
	level, name, token string
}

// houseBots runs the house bots of a server: each level a bot account,
// playing through the server's own bot API.
type houseBots struct {
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

// startHouseBots makes the account and a new token of each level's house
// bot (the account is created when missing, with no usable password, and
// made a bot; the store keeps only the token's hash), then runs each bot
// against the server at base until stop, playing in this process with
// the computer player of its level, at most maxGames games at once.
func startHouseBots(ctx context.Context, st store.Store, levels []string, maxGames int, players ai.Config, base string, log *slog.Logger) (*houseBots, error) {
	users, okUsers := st.(store.Users)
	tokens, okTokens := st.(store.Tokens)
	if !okUsers || !okTokens {
		return nil, errors.New("--house-bots: the database keeps no accounts or no API tokens; house bots need both (SQLite and PostgreSQL keep them)")
	}
	tm := account.TokenManager{Users: users, Tokens: tokens, Feed: st}
	var accounts []houseBotAccount
	for _, level := range levels {
		name := houseBotPrefix + level
		secret, err := houseAccount(ctx, tm, name)
		if err != nil {
			return nil, fmt.Errorf("--house-bots: the account %s: %w", name, err)
		}
		accounts = append(accounts, houseBotAccount{level, name, secret})
	}
	ctx, cancel := context.WithCancel(ctx)
	h := &houseBots{cancel: cancel}
	for _, a := range accounts {
		level := a.level
		b, err := bot.New(bot.Config{
			URL: base, Token: a.token,
			Engine: &bot.Search{Registry: games.All(), Computer: func(g game.Game) (search.Player, error) { return players.New(g, level) }},
			// Any game the level plays, any time control, rated or not.
			Policy: bot.Policy{Rated: true, Casual: true, Fischer: true, Correspondence: true, Concurrent: maxGames},
			Log:    log.With("bot", a.name),
		})
		if err != nil {
			cancel()
			return nil, err
		}
		h.wg.Add(1)
		go func() {
			defer h.wg.Done()
			if err := b.Run(ctx); err != nil {
				log.Error("a house bot stopped", "bot", a.name, "err", err)
			}
		}()
	}
	return h, nil
}

// stop stops the house bots and waits for them.
func (h *houseBots) stop() {
	h.cancel()
	h.wg.Wait()
}

// houseAccount makes sure the bot account name exists, replaces the
// tokens an earlier start made for it with a new one (revoking them closes
// what they opened on every instance), and returns the new token's
// secret.
func houseAccount(ctx context.Context, tm account.TokenManager, name string) (string, error) {
	u, err := tm.Users.UserByName(ctx, name)
	if errors.Is(err, store.ErrNotFound) {
		u = &store.User{ID: httpx.NewID(), Name: name, PasswordHash: account.NoPassword(), Created: time.Now().UTC().Truncate(time.Millisecond)}
		err = tm.Users.CreateUser(ctx, u)
	}
	if err != nil {
		return "", err
	}
	if !u.Bot {
		if err := tm.Tokens.SetBot(ctx, u.ID); err != nil {
			return "", err
		}
	}
	old, err := tm.Tokens.TokensOf(ctx, u.ID)
	if err != nil {
		return "", err
	}
	for _, t := range old {
		if t.Description == houseBotToken {
			if _, err := tm.Revoke(ctx, u.ID, t.ID); err != nil && !errors.Is(err, store.ErrNotFound) {
				return "", err
			}
		}
	}
	secret, _, err := tm.Create(ctx, u, houseBotToken, []string{store.ScopeBot})
	return secret, err
}
