#!/usr/bin/env bash
# test.sh runs MCP Desk's test layers (all of them, or the ones named):
#   go        vet, gofmt, Go unit + integration tests (real stdio/HTTP/SSE MCP
#             servers, real SQLite, the real keychain under dbus-run-session),
#             fuzz seed corpora
#   frontend  svelte-check and vitest component tests
#   bindings  regenerated Wails bindings, the Go↔UI contract and the
#             remote-DOM sandbox runtime must match the committed ones
#   conformance  the official MCP conformance suite's client scenarios for
#             2025-11-25 and 2026-07-28, mcpdesk inspect as the client
#   e2e       Playwright in Debian's Chromium against the dev-tag binary
#   window    the production window under Xvfb: screenshot must not be blank;
#             the tray, a second launch, quick chat and the global shortcut
#   package   .deb/.rpm/NSIS installers built; the .deb installed and its
#             window opened under Xvfb; the NSIS exe holds a cgo-SQLite exe
set -euo pipefail
cd "$(dirname "$0")/../.."
layers=("$@")
[ ${#layers[@]} -gt 0 ] || layers=(go frontend bindings conformance e2e window package)

export PATH="$(go env GOPATH)/bin:$PATH"
export MCPDESK_NPM_DIR="$PWD/backend/mcppool/testdata/npm"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# WebKit and the keychain keep per-user data: isolate both, but keep Go's
# build cache where it is (it lives under XDG_CACHE_HOME by default).
export GOCACHE="$(go env GOCACHE)"
export XDG_DATA_HOME="$tmp/data" XDG_CACHE_HOME="$tmp/cache" XDG_CONFIG_HOME="$tmp/config"
mkdir -p "$XDG_DATA_HOME" "$XDG_CACHE_HOME" "$XDG_CONFIG_HOME"

# The checkout's local changes before any layer ran ("" when clean).
changes_at_start=$(git status --porcelain --untracked-files=no 2>/dev/null || true)

step() { printf '\n=== %s ===\n' "$*"; }
# bounded CMD…: CMD, stopped after 15 minutes (each check takes under a
# minute): a check that hangs fails its layer with a message instead of
# holding CI until its time runs out.
bounded() {
  local rc=0
  timeout --kill-after=30s 15m "$@" || rc=$?
  case $rc in 124 | 137) echo "test.sh: $1 ran for 15 minutes and was stopped" ;; esac
  return $rc
}
passed=0
count() {
  [[ "$1" =~ ^[0-9]+$ ]] || { echo "test.sh: could not read a test count from the output above"; exit 1; }
  passed=$((passed + $1))
}

layer_go() {
  step "go vet"
  go vet ./...
  GOOS=windows go vet ./backend/... >/dev/null
  step "gofmt"
  bad=$(gofmt -l $(git ls-files '*.go'))
  [ -z "$bad" ] || { echo "gofmt would change: $bad"; return 1; }
  step "go test (real keychain, real MCP servers, real SQLite)"
  local log="$tmp/go-test.log" rc=0
  dbus-run-session -- build/scripts/with-keyring.sh \
    go test -v -tags keychain,sqlite_fts5 -count=1 -timeout 15m ./... >"$log" 2>&1 || rc=$?
  # The forked modules (backend/third_party/README.md) are modules of their
  # own, which ./... leaves out: their upstream tests and ours, with -race.
  local fork
  for fork in backend/third_party/*/; do
    [ $rc -ne 0 ] || (cd "$fork" && go vet ./... && go test -v -race -count=1 ./...) >>"$log" 2>&1 || rc=$?
  done
  grep -E '^(ok|FAIL|\?|panic:)' "$log" || true
  if [ $rc -ne 0 ]; then
    echo "--- failures:"
    grep -B2 -A25 -E -- '--- FAIL|^panic:' "$log" | head -300
    return $rc
  fi
  count "$(grep -cE -- '^\s*--- PASS' "$log")"
}

layer_frontend() {
  step "svelte-check"
  (cd frontend && npm run --silent check)
  step "vitest"
  (cd frontend && npm test --silent) | tee "$tmp/vitest.log"
  count "$(sed 's/\x1b\[[0-9;]*m//g' "$tmp/vitest.log" | grep -E '^\s*Tests\s' | grep -oE '[0-9]+ passed' | grep -oE '[0-9]+')"
}

layer_bindings() {
  step "wails bindings are up to date"
  wails generate module -tags "webkit2_41,sqlite_fts5" >/dev/null
  # wails writes its runtime files 0755 when it creates them; git keeps them
  # 0644, and a flipped mode would stamp later builds "-dirty".
  chmod 644 frontend/wailsjs/runtime/*
  # Content only: wails writes the runtime files 0644 or 0755 depending on whether they exist.
  if ! git -c core.fileMode=false diff --exit-code --stat -- frontend/wailsjs; then
    echo "frontend/wailsjs is stale: run 'wails generate module' and commit it"
    return 1
  fi
  step "the Go↔UI contract is up to date"
  go run ./backend/contract/gen
  if ! git diff --exit-code --stat -- frontend/src/lib/api/generated; then
    echo "frontend/src/lib/api/generated is stale: run 'make contract' and commit it"
    return 1
  fi
  step "the remote-DOM sandbox runtime is up to date"
  (cd frontend && npm run -s bundle:remote-dom >/dev/null)
  if ! git diff --exit-code --stat -- backend/apps/remotedom; then
    echo "backend/apps/remotedom is stale: run 'cd frontend && npm run bundle:remote-dom' and commit it"
    return 1
  fi
  count 3
}

layer_conformance() {
  step "MCP conformance suite (client scenarios, both revisions)"
  bounded build/scripts/conformance.sh | tee "$tmp/conformance.log"
  count "$(sed -nE 's/^conformance: ([0-9]+) passed.*/\1/p' "$tmp/conformance.log")"
}

layer_e2e() {
  step "end-to-end (Playwright + Chromium against the dev binary)"
  make --no-print-directory dev-binary
  # The in-memory fakes of the UI tests never reach the production bundle
  # (main.ts loads the demo backend only in a Vite dev server).
  if grep -rlF -e 'no longer waiting for an answer' -e 'the conversation has no message to answer' frontend/dist; then
    echo "frontend/dist holds code of src/test/fakes/"
    return 1
  fi
  # Messages are compiled at build time (src/lib/i18n/compile.ts): the
  # window's code holds no ICU parser (its error kinds would be in it).
  if grep -rlF -e 'EXPECT_ARGUMENT_CLOSING_BRACE' frontend/dist; then
    echo "frontend/dist holds the ICU message parser"
    return 1
  fi
  # Every spec file is run: e2e/tests/ has its Playwright file.
  local f
  for f in frontend/e2e/specs/*.mjs; do
    [ -f "frontend/e2e/tests/$(basename "$f" .mjs).spec.mjs" ] || { echo "$f has no frontend/e2e/tests/$(basename "$f" .mjs).spec.mjs"; return 1; }
  done
  # Playwright Test, two workers (each spec file has its own app, data
  # folder, X display and D-Bus session); traces of failed tests are kept
  # in build/bin/e2e-results. `node e2e/run.mjs` runs the same specs one
  # after another, for debugging one at a time.
  local rc=0
  (cd frontend && npx playwright test) 2>&1 | sed 's/\x1b\[[0-9;]*m//g' | tee "$tmp/e2e.log" || rc=$?
  [ $rc -eq 0 ] || return 1
  count "$(sed -nE 's/^ *([0-9]+) passed.*/\1/p' "$tmp/e2e.log" | tail -1)"
}

layer_window() {
  step "production window under Xvfb"
  make --no-print-directory build
  # In a D-Bus session of its own, as on a desktop: without one, GTK has
  # D-Bus autolaunch a bus that outlives the check (with a gnome-keyring).
  bounded dbus-run-session -- build/scripts/window-check.sh 2>&1 | grep -vE '^dbus-daemon|^SpiRegistry' | tee "$tmp/window.log"
  [ "${PIPESTATUS[0]}" -eq 0 ] || return 1
  count "$(sed -nE 's/^window-check: ([0-9]+) passed.*/\1/p' "$tmp/window.log")"
  step "the desktop around the window: tray, second launch, quick chat, shortcut"
  bounded dbus-run-session -- build/scripts/desktop-check.sh 2>&1 | grep -vE '^dbus-daemon|^SpiRegistry' | tee "$tmp/desktop.log"
  [ "${PIPESTATUS[0]}" -eq 0 ] || return 1
  count "$(sed -nE 's/^desktop: ([0-9]+) passed.*/\1/p' "$tmp/desktop.log")"
}

layer_package() {
  step "installers (.deb, .rpm, Windows NSIS) and the installed app"
  # The earlier layers (npm ci, generated bindings) must leave a clean clone
  # as it was: the installers then carry a clean version, not "…-dirty".
  local dirty
  dirty=$(git status --porcelain --untracked-files=no)
  if [ -z "$changes_at_start" ] && [ -n "$dirty" ]; then
    echo "the test layers changed tracked files, so the version would be -dirty:"; echo "$dirty"; return 1
  fi
  make --no-print-directory package
  bounded build/scripts/package-check.sh | tee "$tmp/package.log"
  count "$(sed -nE 's/^package: ([0-9]+) passed.*/\1/p' "$tmp/package.log")"
}

timings=()
for l in "${layers[@]}"; do
  t0=$SECONDS
  "layer_$l"
  timings+=("$l $((SECONDS - t0)) s")
done
printf '\nall test layers passed: %s\n' "${layers[*]}"
printf 'layer time: %s\n' "${timings[@]}"
echo "tests: $passed passed, 0 failed"
