# MCP Desk — two commands for a fresh Debian/Ubuntu machine:
#   make run    install what is missing, build, start the app
#   make test   install what is missing, run every test layer
# Everything else here is a step of those two.

SHELL   := /bin/bash
# The version is read once, before any step runs: nothing a build generates
# can stamp it "-dirty".
ifndef VERSION
VERSION := $(shell git describe --tags --always --dirty 2>/dev/null || echo 0.1.0-dev)
endif
# Go and Node that build/scripts/deps.sh fetched for a machine without them
# (or with versions too old) live in build/.tools and come first on PATH.
TOOLS   := $(CURDIR)/build/.tools
NODEARCH := $(if $(filter aarch64 arm64,$(shell uname -m)),arm64,x64)
export PATH := $(TOOLS)/go/bin:$(TOOLS)/node/node_modules/node-linux-$(NODEARCH)/bin:$(TOOLS)/node/node_modules/.bin:$(PATH)
TAGS    := webkit2_41,sqlite_fts5
LDFLAGS := -X main.version=$(VERSION)

.PHONY: run build dev-binary deps deps-test frontend test test-go test-frontend test-bindings test-conformance test-e2e test-window test-package test-fresh package package-sizes bench clean contract

run: build
	./build/bin/mcpdesk

build: deps frontend
	go build -tags desktop,production,$(TAGS) -trimpath -ldflags "-w -s $(LDFLAGS)" -o build/bin/mcpdesk .

# The UI's half of the Go↔UI contract (backend/contract), after a change to
# a bound method, an event or a type they carry; a Go test fails until then.
contract:
	go run ./backend/contract/gen

# The development build serves the UI and the Go bindings to a browser
# (-devserver), which the end-to-end tests drive.
dev-binary: frontend
	go build -tags dev,$(TAGS) -ldflags "$(LDFLAGS)" -o build/bin/mcpdesk-dev .

# Installers into build/package/out: .deb and .rpm (nfpm), the Windows NSIS
# installer (mingw cross-build with cgo SQLite). macOS: build/darwin/package-macos.sh on a Mac.
package: deps frontend
	@VERSION=$(VERSION) build/scripts/package.sh

package-sizes:
	@build/scripts/package-sizes.sh

deps:
	@build/scripts/deps.sh build

deps-test:
	@build/scripts/deps.sh test

frontend:
	cd frontend && npm run build

test: deps-test
	@build/scripts/test.sh

test-go:
	@build/scripts/test.sh go
test-frontend:
	@build/scripts/test.sh frontend
test-bindings:
	@build/scripts/test.sh bindings
test-conformance:
	@build/scripts/test.sh conformance
test-e2e:
	@build/scripts/test.sh e2e
test-window:
	@build/scripts/test.sh window
test-package:
	@build/scripts/test.sh package

# The two commands on a clean Debian root file system (debootstrap + chroot,
# needs root); not part of `make test`.
test-fresh:
	@build/scripts/test-fresh.sh

# Benchmarks print figures; they are not part of `make test`.
bench: deps-test dev-binary
	go test -run '^$$' -bench 'EchoOverhead' -benchtime 4000x -count 3 ./backend/mcppool/
	go test -run '^$$' -bench 'ConnectParallel' -benchtime 10x -count 1 ./backend/mcppool/
	go test -run '^$$' -bench 'HugeLine|ListChangedStorm|RPCLogFlood' -benchtime 1x -v ./backend/mcppool/
	go test -tags sqlite_fts5 -run '^$$' -bench 'Pipeline' -benchtime 3x ./backend/chat/
	# The first-token overhead with the key in a real keychain (a private gnome-keyring).
	d=$$(mktemp -d) && XDG_DATA_HOME=$$d dbus-run-session -- build/scripts/with-keyring.sh env MCPDESK_BENCH_KEYCHAIN=1 \
	  go test -tags sqlite_fts5 -run '^$$' -bench 'PipelineRatio' -benchtime 40x -count 3 ./backend/chat/; rc=$$?; rm -rf $$d; exit $$rc
	go test -tags sqlite_fts5 -run '^$$' -bench 'ToolSearch150' -benchtime 1x ./backend/chat/
	go test -tags sqlite_fts5 -run '^$$' -bench 'Search100k' -benchtime 20x -v ./backend/store/
	go test -tags sqlite_fts5 -run '^$$' -bench 'UsageAggregates1M' -benchtime 5x -v -timeout 30m ./backend/usage/
	build/scripts/window-bench.sh
	build/scripts/mem-bench.sh
	build/scripts/mem-chat-bench.sh
	build/scripts/window-frames-bench.sh
	build/scripts/engine-bench.sh
	node frontend/e2e/bench.mjs

clean:
	rm -rf build/bin build/package/out frontend/dist/assets frontend/dist/index.html
