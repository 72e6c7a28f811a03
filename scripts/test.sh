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
npx playwright test
