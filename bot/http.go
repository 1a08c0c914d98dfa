package bot

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// APIError is an answer of the server other than success: its status and
// the error it sent ({"error": "...", "code": "..."}).
type APIError struct {
	// Method and Path name the request.
	Method, Path string
	Status       int
	// Code is the error's code, when the server sent one; Message says
	// what was wrong.
	Code, Message string
	// RetryAfter is when the server said to ask again (Retry-After), 0
	// when it did not.
	RetryAfter time.Duration
}

func (e *APIError) Error() string {
	msg := e.Message
	if msg == "" {
		msg = http.StatusText(e.Status)
	}
	return fmt.Sprintf("%s %s: %d %s", e.Method, e.Path, e.Status, msg)
}

// Permanent reports whether asking again cannot help: the request itself
// is refused (a bad token, a missing scope, an unknown game), as opposed
// to a server that is busy, restarting or unreachable.
func (e *APIError) Permanent() bool {
	switch {
	case e.Status == http.StatusTooManyRequests || e.Status == http.StatusRequestTimeout:
		return false
	case e.Status >= 400 && e.Status < 500, e.Status == http.StatusNotImplemented:
		return true
	}
	return false
}

// permanent reports whether err is an APIError that asking again cannot
// help.
func permanent(err error) bool {
	var ae *APIError
	return errors.As(err, &ae) && ae.Permanent()
}

// maxLine bounds a line of a stream: a game's full line with its moves
// and legal moves fits many times over.
const maxLine = 1 << 20

// actionTimeout bounds a request that is not a stream.
const actionTimeout = 15 * time.Second

// request sends a request to the server with the bot's token and decodes
// a successful answer's JSON into out (when not nil). body, when not nil,
// is sent as JSON.
func (b *Bot) request(ctx context.Context, method, path string, body, out any) error {
	ctx, cancel := context.WithTimeout(ctx, actionTimeout)
	defer cancel()
	var rd io.Reader
	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(data)
	}
	req, err := http.NewRequestWithContext(ctx, method, b.base+path, rd)
	if err != nil {
		return err
	}
	b.authorize(req)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := b.http.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if res.StatusCode/100 != 2 {
		return apiError(req, res)
	}
	if out == nil {
		io.Copy(io.Discard, io.LimitReader(res.Body, maxLine))
		return nil
	}
	if err := json.NewDecoder(io.LimitReader(res.Body, maxLine)).Decode(out); err != nil {
		return fmt.Errorf("%s %s: the answer is not the JSON expected: %v", method, path, err)
	}
	return nil
}

// authorize adds the bot's token to a request.
func (b *Bot) authorize(req *http.Request) {
	req.Header.Set("Authorization", "Bearer "+b.cfg.Token)
	req.Header.Set("User-Agent", "stax-bot")
}

// apiError reads the error of an unsuccessful answer.
func apiError(req *http.Request, res *http.Response) *APIError {
	e := &APIError{Method: req.Method, Path: req.URL.Path, Status: res.StatusCode}
	if secs, err := strconv.Atoi(res.Header.Get("Retry-After")); err == nil && secs > 0 {
		e.RetryAfter = time.Duration(secs) * time.Second
	}
	var body struct {
		Error string `json:"error"`
		Code  string `json:"code"`
	}
	data, _ := io.ReadAll(io.LimitReader(res.Body, 64<<10))
	if json.Unmarshal(data, &body) == nil {
		e.Message, e.Code = body.Error, body.Code
	} else {
		e.Message = strings.TrimSpace(string(data))
		if len(e.Message) > 200 {
			e.Message = e.Message[:200] + "..."
		}
	}
	return e
}

// errQuiet ends a stream that stayed silent, not even sending its
// keep-alives, for longer than Config.Quiet: the connection is taken for
// dead.
var errQuiet = errors.New("the stream sent nothing, not even a keep-alive")

// errEnded ends a stream that the server closed.
var errEnded = errors.New("the server closed the stream")

// stream reads the newline-delimited JSON stream at path, calling opened
// once it is open and line for each line that is not a keep-alive, until
// the stream ends (errEnded), stays silent for Config.Quiet (errQuiet),
// line returns an error (returned as is), or ctx is done (ctx.Err()).
func (b *Bot) stream(ctx context.Context, path string, opened func(), line func([]byte) error) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	quiet := time.AfterFunc(b.quiet, func() { cancel(errQuiet) })
	defer quiet.Stop()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, b.base+path, nil)
	if err != nil {
		return err
	}
	b.authorize(req)
	req.Header.Set("Accept", "application/x-ndjson")
	res, err := b.http.Do(req)
	if err != nil {
		return streamErr(ctx, err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return apiError(req, res)
	}
	if opened != nil {
		opened()
	}
	rd := bufio.NewReaderSize(res.Body, 64<<10)
	for {
		quiet.Reset(b.quiet)
		data, err := readLine(rd)
		if err != nil {
			if errors.Is(err, io.EOF) && ctx.Err() == nil {
				return errEnded
			}
			return streamErr(ctx, err)
		}
		if len(bytes.TrimSpace(data)) == 0 {
			continue // a keep-alive
		}
		if err := line(data); err != nil {
			return err
		}
	}
}

// streamErr returns why a stream's read failed: its context's cause when
// it was cancelled (errQuiet, or the caller's), else err.
func streamErr(ctx context.Context, err error) error {
	if cause := context.Cause(ctx); cause != nil {
		return cause
	}
	return err
}

// readLine reads one line of a stream, refusing lines longer than maxLine.
func readLine(rd *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		chunk, err := rd.ReadSlice('\n')
		line = append(line, chunk...)
		if len(line) > maxLine {
			return nil, fmt.Errorf("a line of the stream is longer than %d bytes", maxLine)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return line, err
	}
}

// backoff is the growing wait between two attempts to connect: from
// Config.MinBackoff, doubling up to Config.MaxBackoff, with a random part
// of up to a quarter so that many bots do not come back all at once.
type backoff struct {
	min, max, cur time.Duration
}

// after returns the wait before the next attempt after err: the
// server's Retry-After when it said one, else the next backoff.
func (bo *backoff) after(err error) time.Duration {
	var ae *APIError
	if errors.As(err, &ae) && ae.RetryAfter > 0 {
		return min(ae.RetryAfter, bo.max) + rand.N(ae.RetryAfter/4+1)
	}
	return bo.next()
}

// next returns the wait before the next attempt.
func (bo *backoff) next() time.Duration {
	if bo.cur == 0 {
		bo.cur = bo.min
	} else {
		bo.cur = min(2*bo.cur, bo.max)
	}
	return bo.cur + rand.N(bo.cur/4+1)
}

// reset makes the next wait the shortest again, after a connection that
// worked.
func (bo *backoff) reset() { bo.cur = 0 }

// sleep waits for d or until ctx is done, reporting whether the wait ran
// its course.
func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
