#!/usr/bin/env bash
# window-frames-bench.sh prints the frames of the real production window
# (WebKitGTK under Xvfb) while a 10,000-token reply arrives, as fast as it
# can and paced: frontend/e2e/frames/window-frames.mjs builds a probe of the
# app with `go build -overlay` (the source tree is not touched) and drives
# it. Given several repositories (e.g. a worktree of the build before a
# change, each with its frontend/dist built), it alternates between them,
# RUNS (3) times.
#   build/scripts/window-frames-bench.sh [repo ...]
set -euo pipefail
cd "$(dirname "$0")/../.."
. build/scripts/bench-session.sh
[ $# -gt 0 ] || make --no-print-directory frontend
exec node frontend/e2e/frames/window-frames.mjs "$@"
