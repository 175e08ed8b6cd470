#!/usr/bin/env bash
# Restart the instances one after the other, each only once the one before
# answers /readyz again, so that nginx always has one to send to.
#   deploy/rolling-restart.sh 8081 8082
set -euo pipefail
for port in "$@"; do
  echo "restarting northbeam@$port"
  systemctl restart "northbeam@$port"
  for _ in $(seq 1 120); do
    if curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null 2>&1; then
      echo "northbeam@$port is ready"
      # Longer than nginx's fail_timeout (deploy/nginx-site.conf): nginx
      # must see this instance up again before the next one goes down.
      sleep 2
      continue 2
    fi
    sleep 0.5
  done
  echo "northbeam@$port is not ready after 60 s; stopping the rollout" >&2
  exit 1
done
