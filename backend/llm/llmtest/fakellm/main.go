// Command fakellm is a scripted fake LLM provider for black-box tests of the
// built app (end-to-end tests, benchmarks, the window check): the
// byte-accurate OpenAI SSE (or Ollama NDJSON) streams of package llmtest,
// served from a JSON script.
//
//	fakellm --addr 127.0.0.1:0 --script turns.json [--repeat] [--models a,b]
//
// It prints "listening http://HOST:PORT" on stdout once it accepts
// connections; an OpenAI client's base URL is that plus "/v1". Each chat
// request takes the next turn of the script (see llmtest.ParseScript for the
// format); with --repeat the last turn is served again whenever the script
// runs out. With --require-key and --open-models only chat requests check
// the key, as on servers that list models to anyone. GET /_requests lists the chat requests received (headers and
// bodies), POST /_script queues more turns, GET /v1/models lists --models.
package main

import (
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"mcpdesk/backend/llm/llmtest"
)

func main() {
	var (
		addr, script, models, key string
		repeat, ollama, quiet     bool
		openModels                bool
	)
	flag.StringVar(&addr, "addr", "127.0.0.1:0", "address to listen on")
	flag.StringVar(&script, "script", "", "JSON script of turns (a file, or - for stdin); none: every request fails until turns are POSTed to /_script")
	flag.BoolVar(&repeat, "repeat", false, "serve the script's last turn again whenever the script runs out")
	flag.StringVar(&models, "models", "", "comma-separated model ids listed by /v1/models (default: gpt-4o,gpt-4o-mini)")
	flag.StringVar(&key, "require-key", "", "answer 401 to requests without this API key")
	flag.BoolVar(&openModels, "open-models", false, "with --require-key: list models without checking the key, as many OpenAI-compatible servers do")
	flag.BoolVar(&ollama, "ollama", false, "serve the Ollama API (/api/chat, /api/tags) instead of the OpenAI one")
	flag.BoolVar(&quiet, "quiet", false, "do not log each request on stderr")
	flag.Parse()
	log.SetFlags(log.Ltime | log.Lmicroseconds)
	log.SetPrefix("fakellm: ")

	var turns []llmtest.Turn
	if script != "" {
		var b []byte
		var err error
		if script == "-" {
			b, err = io.ReadAll(os.Stdin)
		} else {
			b, err = os.ReadFile(script)
		}
		if err != nil {
			log.Fatal(err)
		}
		if turns, err = llmtest.ParseScript(b); err != nil {
			log.Fatal(err)
		}
	}
	if repeat && len(turns) == 0 {
		log.Fatal("--repeat needs a script with at least one turn")
	}

	srv, err := llmtest.StartWith(llmtest.Options{Addr: addr, Ollama: ollama, Logf: log.Printf, LogRequests: !quiet})
	if err != nil {
		log.Fatal(err)
	}
	if models != "" {
		var ids []string
		for _, m := range strings.Split(models, ",") {
			if m = strings.TrimSpace(m); m != "" {
				ids = append(ids, m)
			}
		}
		srv.SetModels(ids...)
	}
	if key != "" {
		srv.RequireKey(key)
	}
	srv.OpenModels(openModels)
	srv.Script(turns...)
	if repeat {
		srv.Repeat(turns[len(turns)-1])
	}
	fmt.Printf("listening %s\n", srv.URL)
	os.Stdout.Sync()

	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	<-sig
	// Streams may still be running: leave without waiting for them.
	os.Exit(0)
}
