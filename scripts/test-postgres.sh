#!/usr/bin/env bash
# Runs the whole test suite again on PostgreSQL (PGlite runs transactions one at a time and hides races).
#   TEST_DATABASE_URL  server to use (default postgres://postgres@127.0.0.1:5432/test); each test file
#                      creates and drops its own scratch database there
#   REQUIRE_POSTGRES=1 a missing PostgreSQL fails the run instead of skipping it
set -euo pipefail
cd "$(dirname "$0")/.."
export TEST_DATABASE_URL="${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test}"

reachable() {
  node -e '
    const pg = require("pg");
    const c = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL, connectionTimeoutMillis: 3000 });
    c.connect().then(() => c.end()).then(() => process.exit(0), () => process.exit(1));
  '
}

if ! reachable; then
  if [ "${CI:-}" = "true" ] && command -v pg_ctlcluster >/dev/null 2>&1; then
    echo "PostgreSQL is not answering; trying to start the local cluster"
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n 1)" main start || true
    for _ in $(seq 1 30); do reachable && break; sleep 1; done
  fi
fi

if ! reachable; then
  if [ "${REQUIRE_POSTGRES:-}" = "1" ]; then
    echo "PostgreSQL pass FAILED: no PostgreSQL at ${TEST_DATABASE_URL} and REQUIRE_POSTGRES=1" >&2
    exit 1
  fi
  echo "NOTICE: PostgreSQL pass skipped: no PostgreSQL at ${TEST_DATABASE_URL} (set REQUIRE_POSTGRES=1 to make this fatal)"
  exit 0
fi

echo "PostgreSQL pass: running the suite against ${TEST_DATABASE_URL}"
npx vitest run "$@"
