#!/usr/bin/env bash
# Lighthouse over every page type in every language (mobile settings), with
# the four scores and every lost point written to docs/lighthouse.md.
#
#   bash bench/lighthouse.sh
#
# Lighthouse 13 needs Node 22.19 or newer; bench/lighthouse/ installs that
# Node from the npm registry beside Lighthouse (pinned in its lock), apart
# from the site's packages. It drives Debian's Chromium (CHROME_PATH).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
npm ci --prefix bench/lighthouse --no-audit --no-fund >/dev/null
node22="$root/bench/lighthouse/node_modules/.bin/node"

tmp=$(mktemp -d)
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$tmp"' EXIT
npm run --silent build:binary >/dev/null
cp bin/northbeam-site "$tmp/northbeam-site"
addr=127.0.0.1:8090
# Audit this build, never a server someone left running on the port.
if curl -fsS -o /dev/null "http://$addr/readyz" 2>/dev/null; then
  echo "lighthouse: $addr already answers; stop that server first" >&2
  exit 1
fi
# The banner shows as it does to visitors (headless Chromium counts as a bot).
(cd "$tmp" && ADDR=$addr BASE_URL=http://$addr DATA_DIR="$tmp/data" CONSENT_HIDE_FROM_BOTS=false exec ./northbeam-site 2>"$tmp/log") &
pid=$!
for _ in $(seq 1 120); do
  curl -fsS -o /dev/null "http://$addr/readyz" 2>/dev/null && break
  sleep 0.5
done
curl -fsS -o /dev/null "http://$addr/readyz"
kill -0 "$pid" # the answer came from the site started here
"$node22" bench/lighthouse/run.mjs "http://$addr" docs/lighthouse.md
