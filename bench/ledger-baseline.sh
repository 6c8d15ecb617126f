#!/usr/bin/env bash
# Builds the baseline of `ledger_payout_approval`: THIS commit with the ledger's posting rules switched off (the
# payouts module's fundingSourceOf answers "not tracked", so no approval holds, nothing posts and the funding row is
# never touched), in a throw-away worktree, and prints the main.js to pass as BENCH_LEDGER_BASELINE_ENTRY. The
# product has no such switch on purpose (track_only still posts: the books are never optional); the edit lives only
# in the worktree. Same commit, same gates, same everything else: the difference measured is the ledger's.
#   BENCH_LEDGER_BASELINE_ENTRY=$(bash bench/ledger-baseline.sh) BENCH_ENGINES=postgres npm run -s bench ledger_payout_approval
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
DEST=${LEDGER_BASELINE_DIR:-/tmp/ledger-off}
cd "$ROOT"
if [ -d "$DEST" ]; then git worktree remove --force "$DEST" >/dev/null 2>&1 || rm -rf "$DEST"; fi
git worktree add --detach "$DEST" HEAD >/dev/null 2>&1
ln -s "$ROOT/node_modules" "$DEST/node_modules"
file="$DEST/src/modules/payouts/index.ts"
grep -q 'fundingSourceOf: async (tx, payout) => {' "$file" || { echo "fundingSourceOf not found in $file" >&2; exit 1; }
sed -i 's|fundingSourceOf: async (tx, payout) => {|fundingSourceOf: async (tx, payout) => {\n      if (tx !== undefined) return null; // bench baseline: the ledger off|' "$file"
# The early return leaves the rest unreachable, which tsc reports; it still emits (noEmitOnError is off).
(cd "$DEST" && npx tsc -p tsconfig.build.json >/dev/null 2>&1 || true)
grep -q "bench baseline: the ledger off" "$DEST/dist/modules/payouts/index.js" || { echo "baseline build failed" >&2; exit 1; }
echo "$DEST/dist/main.js"
