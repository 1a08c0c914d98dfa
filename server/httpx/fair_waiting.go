package httpx

// Waiting returns how many requests wait for a slot now, for metrics.
func (f *Fair) Waiting() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.waiting
}
