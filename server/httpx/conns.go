package httpx

import (
	"sync"
)

// ConnCount counts open connections in total and per client address.
type ConnCount struct {
	mu    sync.Mutex // guards the fields below
	total int
	perIP map[string]int
}

// Take counts one more connection from ip unless that would pass max in
// total or perIP for ip; it reports which limit refused it, "" if none.
func (c *ConnCount) Take(ip string, max, perIP int) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case c.total >= max:
		return "total"
	case c.perIP[ip] >= perIP:
		return "ip"
	}
	if c.perIP == nil {
		c.perIP = map[string]int{}
	}
	c.total++
	c.perIP[ip]++
	return ""
}

// Give counts one connection from ip less.
func (c *ConnCount) Give(ip string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.total--
	if c.perIP[ip]--; c.perIP[ip] <= 0 {
		delete(c.perIP, ip)
	}
}

// Count returns the number of connections open.
func (c *ConnCount) Count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.total
}
