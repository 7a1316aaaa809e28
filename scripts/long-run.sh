#!/usr/bin/env bash
# The long run that checks a benchmark cell (docs/benchmarks.md, "Steady state against a long run"): ./lab up with the
# cell's knobs, WARMUP seconds of hey at the cell's load (not measured), then WINDOW seconds measured with hey -z. A
# different path from ./lab bench's (no warm-up rule, no window trimming), so the two agreeing says the harness found
# the steady state. Prints req/s, p50/p99 (hey's histogram, closed loop), and CPU-ms per request per process
# (utime + stime from /proc/<pid>/stat ÷ answered requests; USER_HZ 100), and of main-service's the part its JIT
# compiler threads and its GC threads used, and its context switches per request (scripts/main-threads.sh; a
# compiler thread that exits inside the window takes its share with it, so the JIT part is a lower bound).
# Usage: scripts/long-run.sh STRATEGY CLIENTS [WARMUP_S=120] [WINDOW_S=60] [-- ./lab up options...]
#   e.g. scripts/long-run.sh completableFutureWithVirtualTaskExecutor 200 120 60 -- --pool-size 2000 --latency-ms 200
# Needs: hey, bc, jq, a quiet machine; stops a running ./lab up first (its own services) and leaves none running.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/main-threads.sh
usage() { sed -n 9,11p "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
[[ $# -ge 2 && $1 != -h && $1 != --help ]] || usage
strategy=$1 clients=$2; shift 2
warmup=120 window=60
[[ $# -gt 0 && $1 != -- ]] && { warmup=$1; shift; }
[[ $# -gt 0 && $1 != -- ]] && { window=$1; shift; }
[[ $# -gt 0 && $1 == -- ]] && shift
[[ $clients =~ ^[1-9][0-9]*$ && $warmup =~ ^[0-9]+$ && $window =~ ^[1-9][0-9]*$ ]] \
  || { echo "CLIENTS, WARMUP_S and WINDOW_S are whole numbers (CLIENTS, WINDOW_S > 0)" >&2; usage; }
command -v hey >/dev/null && command -v bc >/dev/null || { echo "needs hey and bc: apt-get install -y hey bc" >&2; exit 2; }

./lab down >/dev/null 2>&1 || true
./lab up "$@"
trap './lab down >/dev/null 2>&1 || true' EXIT
pid() { jq -r --arg s "$1" '.processes[$s].pid' .lab/run/system.json; }
services=(main-service orders-service products-service accounts-service)
jiffies() { for s in "${services[@]}"; do awk '{print $14 + $15}' "/proc/$(pid "$s")/stat"; done; }
url="http://127.0.0.1:2222/backoffice/api/v1/backoffice/orders?concurrency=$strategy"
curl -sf "$url" >/dev/null || { echo "the strategy's first request failed: curl '$url'" >&2; exit 1; }

echo "warm-up: hey -z ${warmup}s -c $clients (not measured)"
[[ $warmup -gt 0 ]] && hey -z "${warmup}s" -c "$clients" "$url" >/dev/null
read -r -d '' -a before < <(jiffies) || true
read -r _ jit_before gc_before < <(thread_jiffies "$(pid main-service)")
read -r vol_before nonvol_before < <(context_switches "$(pid main-service)")
out=$(mktemp)
echo "window: hey -z ${window}s -c $clients"
hey -z "${window}s" -c "$clients" "$url" > "$out"
read -r -d '' -a after < <(jiffies) || true
read -r _ jit_after gc_after < <(thread_jiffies "$(pid main-service)")
read -r vol_after nonvol_after < <(context_switches "$(pid main-service)")
n=$(awk '/\[200\]/ {print $2}' "$out")
echo "$strategy, $clients clients, $warmup s warm-up, $window s window, ./lab up $*"
awk '/Requests\/sec/ {print "  req/s: " $2} / 50% in/ {print "  p50: " $3 * 1000 " ms"} / 99% in/ {print "  p99: " $3 * 1000 " ms"}' "$out"
awk '/Status code distribution/ {f = 1} f && !NF {exit} f {print "  " $0}' "$out"
for i in "${!services[@]}"; do
  per=$([[ ${services[$i]} == main-service ]] && echo request || echo call)
  echo "  ${services[$i]}: $(echo "scale=3; (${after[$i]} - ${before[$i]}) * 10 / $n" | bc) CPU-ms per $per"
done
echo "    of main-service's: JIT $(echo "scale=3; ($jit_after - $jit_before) * 10 / $n" | bc)," \
  "GC $(echo "scale=3; ($gc_after - $gc_before) * 10 / $n" | bc) CPU-ms per request;" \
  "context switches per request $(echo "scale=2; ($vol_after - $vol_before) / $n" | bc) voluntary," \
  "$(echo "scale=2; ($nonvol_after - $nonvol_before) / $n" | bc) involuntary (threads alive at the end)"
rm -f "$out"
