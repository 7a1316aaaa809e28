#!/usr/bin/env bash
# The warm-up curve of a fresh start (docs/overhead.md, "Warm-up"): ./lab up with the given options, then SECONDS of
# hey at CLIENTS, and every STEP seconds main-service's answered rate and its CPU per request, with the part its JIT
# compiler threads (C1/C2) and its GC threads spent. Steady state is where the rate stops climbing and the compiler's
# share falls to about zero. Rate: http_server_requests_seconds_count of the backoffice endpoint, from the
# management port, over the measured interval; CPU: utime + stime per thread, /proc/<pid>/task/*/stat, USER_HZ 100.
# Usage: scripts/warmup-curve.sh STRATEGY CLIENTS [SECONDS=90] [STEP=5] [-- ./lab up options...]
#   e.g. scripts/warmup-curve.sh completableFutureWithVirtualTaskExecutor 200 90 5 -- --pool-size 2000 --aot
# Needs: hey, bc, jq, a quiet machine; stops a running ./lab up first (its own services) and leaves none running.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/main-threads.sh
usage() { sed -n 7,9p "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
[[ $# -ge 2 && $1 != -h && $1 != --help ]] || usage
strategy=$1 clients=$2; shift 2
seconds=90 step=5
[[ $# -gt 0 && $1 != -- ]] && { seconds=$1; shift; }
[[ $# -gt 0 && $1 != -- ]] && { step=$1; shift; }
[[ $# -gt 0 && $1 == -- ]] && shift
[[ $clients =~ ^[1-9][0-9]*$ && $seconds =~ ^[1-9][0-9]*$ && $step =~ ^[1-9][0-9]*$ ]] \
  || { echo "CLIENTS, SECONDS and STEP are whole numbers above 0" >&2; usage; }
command -v hey >/dev/null && command -v bc >/dev/null || { echo "needs hey and bc: apt-get install -y hey bc" >&2; exit 2; }

./lab down >/dev/null 2>&1 || true
start=$(date +%s.%N)
./lab up "$@" >/dev/null
echo "./lab up $*: ready after $(echo "$(date +%s.%N) - $start" | bc | xargs printf '%.1f') s"
hey_pid=
trap '[[ -n $hey_pid ]] && kill "$hey_pid" 2>/dev/null; ./lab down >/dev/null 2>&1 || true' EXIT
pid=$(jq -r '.processes["main-service"].pid' .lab/run/system.json)
url="http://127.0.0.1:2222/backoffice/api/v1/backoffice/orders?concurrency=$strategy"
curl -sf "$url" >/dev/null || { echo "the strategy's first request failed: curl '$url'" >&2; exit 1; }
answered() {
  curl -sf http://127.0.0.1:9222/actuator/prometheus \
    | awk '/^http_server_requests_seconds_count/ && /backoffice/ {s += $NF} END {printf "%d", s}'
}
echo "hey -z ${seconds}s -c $clients, one line per ${step} s (CPU-ms per answered request of main-service)"
printf '%6s %8s %10s %10s %8s\n' "t (s)" "req/s" "CPU-ms" "JIT" "GC"
hey -z "${seconds}s" -c "$clients" "$url" >/dev/null &
hey_pid=$!
t0=$(date +%s.%N) prev_t=$t0 prev_n=$(answered)
read -r prev_all prev_jit prev_gc < <(thread_jiffies "$pid")
while kill -0 "$hey_pid" 2>/dev/null; do
  sleep "$step"
  kill -0 "$hey_pid" 2>/dev/null || break
  now=$(date +%s.%N) n=$(answered)
  read -r all jit gc < <(thread_jiffies "$pid")
  d=$((n - prev_n)); ((d > 0)) || d=1
  printf '%6.0f %8.1f %10.3f %10.3f %8.3f\n' "$(echo "$now - $t0" | bc)" "$(echo "$d / ($now - $prev_t)" | bc -l)" \
    "$(echo "($all - $prev_all) * 10 / $d" | bc -l)" "$(echo "($jit - $prev_jit) * 10 / $d" | bc -l)" \
    "$(echo "($gc - $prev_gc) * 10 / $d" | bc -l)"
  prev_t=$now prev_n=$n prev_all=$all prev_jit=$jit prev_gc=$gc
done
wait "$hey_pid" || true
hey_pid=
