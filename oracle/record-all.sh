#!/usr/bin/env bash
# Records built-ins one after another (JVMs and redis-servers are heavy on a small machine):
#   oracle/record-all.sh <release> [id ...]     (no ids: every built-in)
# Needs the Redisson classpath in LOCKSCOPE_REDISSON_CLASSPATH[_<release>] (docs/oracle.md).
set -u
cd "$(dirname "$0")/.."
release=$1; shift
ids=("$@")
if [ ${#ids[@]} -eq 0 ]; then
  mapfile -t ids < <(node --import tsx --import ./scripts/raw-loader.mjs -e \
    "import('./src/engine/scenario/builtins/index.ts').then(m => console.log(m.builtins.map(b => b.id).join('\n')))")
fi
for id in "${ids[@]}"; do
  echo "=== $id @ $release ($(uptime | sed 's/.*load/load/'))"
  npm run -s oracle -- "$id" --release "$release" --record --compare > "/tmp/oracle-$id@$release.log" 2>&1
  echo "exit $?: $(grep -E '^(agree|[0-9]+ difference|oracle: refused|oracle: the real run failed|oracle: recorded)' "/tmp/oracle-$id@$release.log" | tr '\n' ' ')"
done
