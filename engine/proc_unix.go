//go:build unix

package engine

import (
	"os/exec"
	"syscall"
)

// isolate puts the engine in its own process group, so that killing it
// also kills any process it started (a script's children would otherwise
// keep its output open).
func isolate(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killAll kills the engine's process group.
func killAll(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	cmd.Process.Kill()
}
