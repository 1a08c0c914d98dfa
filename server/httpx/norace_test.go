//go:build !race

package httpx

// raceDetector tells whether the tests run with the race detector, which
// doubles the stack a goroutine keeps in reserve.
const raceDetector = false
