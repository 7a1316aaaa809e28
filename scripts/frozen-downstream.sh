#!/usr/bin/env bash
# A frozen downstream (docs/reliability.md, "A frozen downstream, with and without the breaker"): ./lab up, CLIENTS
# hey clients on one strategy for BEFORE + FROZEN + AFTER seconds, and orders-service frozen with SIGSTOP for the
# FROZEN seconds in between (its kernel still accepts connections; nothing answers), then resumed with SIGCONT.
# Prints, per phase, the answers per second by status and their mean response time (ms), and the first second after the resume in
# which 2xx answers reach 90 % of their rate before the freeze. Give ./lab up options after --, e.g. --breaker.
# Usage: scripts/frozen-downstream.sh [STRATEGY=scopeFork] [CLIENTS=50] [FROZEN_S=12] [-- ./lab up options...]
#   e.g. scripts/frozen-downstream.sh scopeFork 50 12 -- --breaker
# Needs: hey, jq, a quiet machine; stops a running ./lab up first (its own services) and leaves none running.
set -euo pipefail
cd "$(dirname "$0")/.."
usage() { sed -n 7,9p "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
[[ ${1:-} == -h || ${1:-} == --help ]] && usage
strategy=scopeFork clients=50 frozen=12 before=10 after=20
[[ $# -gt 0 && $1 != -- ]] && { strategy=$1; shift; }
[[ $# -gt 0 && $1 != -- ]] && { clients=$1; shift; }
[[ $# -gt 0 && $1 != -- ]] && { frozen=$1; shift; }
[[ $# -gt 0 && $1 == -- ]] && shift
[[ $clients =~ ^[1-9][0-9]*$ && $frozen =~ ^[1-9][0-9]*$ ]] || { echo "CLIENTS and FROZEN_S are whole numbers > 0" >&2; usage; }
command -v hey >/dev/null && command -v jq >/dev/null || { echo "needs hey and jq: apt-get install -y hey jq" >&2; exit 2; }

./lab down >/dev/null 2>&1 || true
./lab up "$@"
orders=$(jq -r '.processes["orders-service"].pid' .lab/run/system.json)
trap 'kill -CONT "$orders" 2>/dev/null || true; ./lab down >/dev/null 2>&1 || true' EXIT
url="http://127.0.0.1:2222/backoffice/api/v1/backoffice/orders?concurrency=$strategy"
curl -sf "$url" >/dev/null || { echo "the strategy's first request failed: curl '$url'" >&2; exit 1; }
echo "warm-up: hey -z 20s -c $clients (not measured)"
hey -z 20s -c "$clients" "$url" >/dev/null

csv=$(mktemp --suffix=.csv)
total=$((before + frozen + after))
echo "hey -z ${total}s -c $clients; orders-service (pid $orders) frozen from ${before} s to $((before + frozen)) s"
hey -z "${total}s" -c "$clients" -o csv "$url" >"$csv" &
load=$!
sleep "$before"; kill -STOP "$orders"
sleep "$frozen"; kill -CONT "$orders"
wait "$load"
# hey's CSV, one row per answered request: response-time and offset (its start) in s, status-code; by header name
awk -F, -v b="$before" -v f="$frozen" -v t="$total" '
  NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
  $col["status-code"] != "" {
    rt = $col["response-time"]; code = $col["status-code"]; end = $col["offset"] + rt
    phase = end < b ? "before" : end < b + f ? "frozen" : "after"
    n[phase, code]++; sum[phase] += rt * 1000; count[phase]++; codes[code] = 1
    if (code ~ /^2/) ok[int(end)]++
  }
  END {
    len["before"] = b; len["frozen"] = f; len["after"] = t - b - f
    split("before frozen after", phases, " ")
    for (i = 1; i <= 3; i++) {
      p = phases[i]; line = sprintf("%-7s %3d s:", p, len[p])
      for (c in codes) if (n[p, c]) line = line sprintf(" %s %.1f/s", c, n[p, c] / len[p])
      line = line sprintf(", mean %.0f ms", count[p] ? sum[p] / count[p] : 0)
      print line
    }
    base = 0; for (s = 1; s < b; s++) base += ok[s]; base /= (b - 1)
    for (s = b + f; s < t; s++) if (ok[s] >= 0.9 * base) { printf "2xx back at 90 %% of %.0f/s %d s after the resume\n", base, s - b - f; exit }
    print "2xx not back at 90 % of " int(base) "/s by the end"
  }' "$csv"
rm -f "$csv"
