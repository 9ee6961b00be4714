#!/usr/bin/env bash
# What `npm test` runs: build the bundle, typecheck, then every test (unit and integration)
# with tap, ending with one "N passed, N failed, N skipped" line. Extra args go to tap.
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ -f src/cli/main.ts ]]; then
  echo "# build: node scripts/build.mjs"
  node scripts/build.mjs
else
  echo "# build: skipped, src/cli/main.ts does not exist yet (tests that need dist/node-check.cjs will say so)"
fi

echo "# typecheck: npx tsc -p . --noEmit"
npx tsc -p . --noEmit

echo "# tests: npx tap $*"
npx tap "$@" | node scripts/tap-summary.mjs
