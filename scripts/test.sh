#!/usr/bin/env bash
# What `npm test` runs: build the bundle, typecheck, the oracle comparison (a disagreement with the
# real kubelet's recorded verdicts stops the run), then every test (unit and integration) with tap,
# ending with one "N passed, N failed, N skipped" line. Extra args go to tap.
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

# Go-free and root-free: node-check against the real kubelet's recorded verdicts (scripts/oracle/compare.mjs).
echo "# oracle: node scripts/oracle/compare.mjs"
node scripts/oracle/compare.mjs

echo "# tests: npx tap $*"
npx tap "$@" | node scripts/tap-summary.mjs
