//go:build !unix

package engine

import "os/exec"

// isolate does nothing where process groups are not available.
func isolate(cmd *exec.Cmd) {}

// killAll kills the engine's process.
func killAll(cmd *exec.Cmd) {
	if cmd.Process != nil {
		cmd.Process.Kill()
	}
}
