package server

import (
	"time"
)

// DefaultHSTSMaxAge is how long a browser that reached the site over TLS
// keeps to TLS for it (Strict-Transport-Security), by default.
const DefaultHSTSMaxAge = 365 * 24 * time.Hour
