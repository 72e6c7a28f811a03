#!/usr/bin/env bash
# `npm test`: everything CI checks, in order of cost. Any failure stops the run.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n== %s\n' "$1"; }

step "system packages"
bash scripts/setup-system.sh

step "typecheck"
npx tsc -p tsconfig.json --noEmit

step "lint"
npx eslint .

step "unit tests"
npx vitest run --project unit

step "conformance (simulator vs real redis-server)"
npx vitest run --project conformance

step "e2e (built app in Chromium)"
npx vite build --logLevel warn
# Two workers for the specs that check what the page shows (they wait for the page, never on a
# clock: docs/testing.md); then, alone on the machine, the specs that time it (perf, perf-typing,
# explore's long tasks while it searches). Any failure stops the run.
npx playwright test --workers=2 --grep-invert 'perf\.spec\.ts|perf-typing\.spec\.ts|explore\.spec\.ts'
npx playwright test --workers=1 e2e/perf.spec.ts e2e/perf-typing.spec.ts e2e/explore.spec.ts
