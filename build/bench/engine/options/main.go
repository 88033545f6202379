// Command options prints the window's script-engine options
// (backend/webview.EngineOptions) as NAME=VALUE, one per line, for the
// scripts that run WebKit with them or check that the window did. With
// -render it adds the software-rendering options (RenderOptions), which the
// window also starts with unless MCPDESK_WEBVIEW_GPU asks for the GPU.
package main

import (
	"flag"
	"fmt"

	"mcpdesk/backend/webview"
)

func main() {
	render := flag.Bool("render", false, "add the software-rendering options")
	flag.Parse()
	opts := webview.EngineOptions
	if *render {
		opts = append(opts[:len(opts):len(opts)], webview.RenderOptions...)
	}
	for _, o := range opts {
		fmt.Printf("%s=%s\n", o.Name, o.Value)
	}
}
