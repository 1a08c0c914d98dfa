// Package httpx holds what every domain of the site shares over HTTP: JSON
// answers and errors, rate limits per client address, the client address
// behind trusted proxies, ids and secrets, and the admission, upgrade and
// keep-alive of websockets ([Sockets]). It knows no domain.
package httpx
