#!/usr/bin/env bash
# Lints the OpenAPI document the service serves (/v1/openapi.json), built by buildApp on a throw-away embedded
# database, with Redocly's `recommended` rules and Spectral's `spectral:oas` ruleset. Any error or warning
# fails; the rules turned off are in lint/openapi/ with their reasons.
set -euo pipefail
cd "$(dirname "$0")/.."
export REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true SCARF_ANALYTICS=false NO_UPDATE_NOTIFIER=1
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
document="$work/openapi.json"
npx tsx scripts/write-openapi.ts "$document"

echo "== Redocly (recommended)"
# Redocly fails only on errors; its JSON report gives the warning count too.
set +e
npx redocly lint "$document" --config lint/openapi/redocly.yaml --format=json >"$work/redocly.json" 2>"$work/redocly.err"
redocly_status=$?
set -e
node -e '
  const report = JSON.parse(require("node:fs").readFileSync(process.argv[1], "utf8"));
  for (const problem of report.problems) {
    const where = problem.location?.[0]?.pointer ?? "";
    console.log(`${problem.severity} ${problem.ruleId} ${where}: ${problem.message}`);
  }
  const { errors, warnings } = report.totals;
  console.log(`Redocly: ${errors} errors, ${warnings} warnings`);
  process.exit(errors + warnings > 0 ? 1 : 0);
' "$work/redocly.json" || exit 1
if [ "$redocly_status" -ne 0 ]; then
  grep -v "║\|╔\|╚" "$work/redocly.err" >&2 || true
  exit "$redocly_status"
fi

echo "== Spectral (spectral:oas)"
npx spectral lint "$document" --ruleset lint/openapi/spectral.yaml --fail-severity=warn
