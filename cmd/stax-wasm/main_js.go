//go:build js && wasm

package main

import "syscall/js"

// main installs staxEngine(request) on the worker's global object, tells
// the worker it is ready by calling staxEngineReady if defined, and then
// waits for ever, so that the function stays callable.
func main() {
	js.Global().Set("staxEngine", js.FuncOf(func(this js.Value, args []js.Value) any {
		if len(args) != 1 || args[0].Type() != js.TypeString {
			return `{"error":"staxEngine takes one argument, a request in JSON"}`
		}
		return string(HandleJSON([]byte(args[0].String())))
	}))
	if ready := js.Global().Get("staxEngineReady"); ready.Type() == js.TypeFunction {
		ready.Invoke()
	}
	select {}
}
