package httpx

// The error codes of websocket error messages that every domain's
// websocket may send; a domain adds its own beside them.
const (
	CodeBadMessage  = "bad_message"
	CodeRateLimited = "rate_limited"
	CodeServer      = "server"
)
