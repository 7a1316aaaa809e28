#!/usr/bin/env bash
# Past capacity (docs/overload.md): ./lab up with a 512 MiB heap, 2 s downstream latency and a pool of 30,000, a burst
# of CLIENTS hey clients on one strategy for 30 s, then one request a second for 10 s. Prints hey's answers by status
# and its errors (client timeouts, connection errors), main-service's peak RSS during the
# burst, whether it is alive, its OutOfMemoryErrors, the seconds from the burst's end to the first normal answer, and
# the CPU seconds main-service and hey spent in the burst (of the 60 two cores have in 30 s), and where 502s and 504s came
# from (main-service's failed downstream calls by exception).
# Give ./lab up options after --, e.g. --profile platform, --admission off, --refusal-status 503; HEAP=128m in the
# environment for another heap;
# HEY_NICE=10 runs hey at that lower CPU priority, as if the clients were on other machines (on 2 cores hey's 6,000
# clients otherwise take a share of the CPU the downstream services need). WARMUP=S first sends S seconds of 200
# clients (under the limit) and waits 5 s, so that the burst meets a JIT-compiled main-service instead of a cold one.
# Usage: scripts/overload-probe.sh [STRATEGY=scopeFork] [CLIENTS=6000] [-- ./lab up options...]
#   e.g. scripts/overload-probe.sh scopeFork 6000 -- --profile platform
# Needs: hey, jq, curl; stops a running ./lab up first (its own services) and leaves none running. The load is bounded:
# 30 s of hey (-t 20: a request waits 20 s at most), 10 requests after it; all to 127.0.0.1.
set -euo pipefail
cd "$(dirname "$0")/.."
usage() { sed -n 13,14p "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
[[ ${1:-} == -h || ${1:-} == --help ]] && usage
strategy=scopeFork clients=6000
[[ $# -gt 0 && $1 != -- ]] && { strategy=$1; shift; }
[[ $# -gt 0 && $1 != -- ]] && { clients=$1; shift; }
[[ $# -gt 0 && $1 == -- ]] && shift
[[ $clients =~ ^[1-9][0-9]*$ ]] || { echo "CLIENTS is a whole number > 0" >&2; usage; }
[[ ${HEY_NICE:-0} =~ ^([0-9]|1[0-9])$ ]] || { echo "HEY_NICE is a nice value from 0 to 19" >&2; usage; }
[[ ${WARMUP:-0} =~ ^([0-9]|[1-9][0-9]|[1-2][0-9][0-9]|300)$ ]] || { echo "WARMUP is 0 to 300 seconds" >&2; usage; }
command -v hey >/dev/null && command -v jq >/dev/null || { echo "needs hey and jq: apt-get install -y hey jq" >&2; exit 2; }
# hey opens a socket per client; the default soft limit (1,024) would fail them before main-service sees them
ulimit -n "$(ulimit -Hn)"

./lab down >/dev/null 2>&1 || true
heap=${HEAP:-512m}
./lab up --latency-ms 2000 --pool-size 30000 --jvm-option=-Xms$heap --jvm-option=-Xmx$heap "$@"
main=$(jq -r '.processes["main-service"].pid' .lab/run/system.json)
trap './lab down >/dev/null 2>&1 || true' EXIT
url="http://127.0.0.1:2222/backoffice/api/v1/backoffice/orders?concurrency=$strategy"
curl -sf "$url" >/dev/null || { echo "the strategy's first request failed: curl '$url'" >&2; exit 1; }
if (( ${WARMUP:-0} > 0 )); then
  echo "warm-up: hey -z ${WARMUP}s -c 200, then 5 s of rest"
  hey -z "${WARMUP}s" -t 20 -c 200 "$url" | grep -A3 'Status code distribution' | tail -n +2
  sleep 5
fi
log=.lab/logs/main-service.log
ooms_before=$(grep -c java.lang.OutOfMemoryError "$log" || true)
lines_before=$(wc -l <"$log")

# connections the kernel dropped because main-service's accept queue was full (server.tomcat.accept-count): their
# clients see a connection, send their request and wait for an answer that never comes
overflows() { nstat -az TcpExtListenOverflows 2>/dev/null | awk '/ListenOverflows/ {print $2}' || echo 0; }
overflows_before=$(overflows)
# CPU seconds (user + system) a process has spent: where two cores went during the burst
cpu_s() { awk -v hz="$(getconf CLK_TCK)" '{printf "%.0f", ($14 + $15) / hz}' "/proc/$1/stat" 2>/dev/null || echo 0; }
main_cpu_before=$(cpu_s "$main")
out=$(mktemp)
echo "burst: hey -z 30s -t 20 -c $clients '$url' (nice ${HEY_NICE:-0})"
/usr/bin/time -f "hey itself: %U s user + %S s system CPU" nice -n "${HEY_NICE:-0}" hey -z 30s -t 20 -c "$clients" "$url" >"$out" 2>&1 &
load=$!
peak=0
while kill -0 "$load" 2>/dev/null; do   # main-service's RSS each second (MiB)
  rss=$(awk '/^VmRSS/ {print int($2 / 1024)}' "/proc/$main/status" 2>/dev/null || echo 0)
  (( rss > peak )) && peak=$rss
  sleep 1
done
wait "$load" || true
end=$(date +%s.%N)
main_cpu=$(( $(cpu_s "$main") - main_cpu_before ))
# hey's latencies of the answers it got (timeouts are not among them): is the tail a continuum or a stall?
sed -n '/^Summary:/,/^ *Average:/p; /^Latency distribution:/,/^$/p' "$out" | grep -E 'Slowest|Average|(50|90|99)% in'
# hey lists each failed connection's error apart (its port differs): summed by kind
sed -n '/Status code distribution/,$p' "$out" | sed -E 's/Get "[^"]*": //; s/127\.0\.0\.1:[0-9]+->//' \
  | awk '/^ +\[[0-9]+\]/ { n = substr($1, 2, length($1) - 2); $1 = ""; sum[$0] += n; next }
         { for (k in sum) printf "  [%d]\t%s\n", sum[k], k; delete sum; print }
         END { for (k in sum) printf "  [%d]\t%s\n", sum[k], k }' 

first=none
for i in $(seq 1 10); do   # one request a second: the first 200 after the burst
  code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 "$url" || true)
  echo "after the burst, request $i: ${code/000/no answer in 5 s}"
  if [[ $code == 200 ]]; then first=$(awk -v e="$end" -v n="$(date +%s.%N)" 'BEGIN {printf "%.1f", n - e}'); break; fi
  sleep 1
done
alive=no; kill -0 "$main" 2>/dev/null && alive=yes
ooms=$(( $(grep -c java.lang.OutOfMemoryError "$log" || true) - ooms_before ))
echo "main-service: peak RSS ${peak} MiB, alive: $alive, OutOfMemoryError lines in its log: $ooms," \
     "first normal answer ${first} s after the burst; accept-queue overflows: $(( $(overflows) - overflows_before ));" \
     "its CPU during the burst: ${main_cpu} s"
# the admission counters, and where a 502 or 504 came from: the server's answers by status and exception, and the
# downstream calls that failed (their exception: a response timeout, a refused connect, ...)
curl -s --max-time 5 "http://127.0.0.1:9222/actuator/prometheus" 2>/dev/null \
  | awk '/^fanout_admission_(requests_total|in_flight|limit)/ || /^http_server_requests_seconds_count\{.*status="50[24]"/ \
         || (/^http_client_requests_seconds_count\{/ && !/exception="none"/)' || true
# how long the requests waited to run before main-service's first filter (for a carrier, or a platform thread): the
# share under the first buckets at or above 1, 5 and 10 s of fanout_admission_queue_wait_seconds, and the longest
curl -s --max-time 5 "http://127.0.0.1:9222/actuator/prometheus" 2>/dev/null | awk '
  /^fanout_admission_queue_wait_seconds_bucket/ { match($0, /le="[^"]*"/); le = substr($0, RSTART + 4, RLENGTH - 5)
    if (le != "+Inf") { n++; bound[n] = le + 0; count[n] = $NF } }
  /^fanout_admission_queue_wait_seconds_count/ { total = $NF }
  /^fanout_admission_queue_wait_seconds_max/ { max = $NF }
  END { if (total == 0) { print "wait to run: no request stamped"; exit }
        line = sprintf("wait to run (fanout_admission_queue_wait_seconds): %d requests", total)
        split("1 5 10", want, " ")
        for (w = 1; w <= 3; w++) for (i = 1; i <= n; i++) if (bound[i] >= want[w]) {
          line = line sprintf(", %.0f %% under %.1f s", 100 * count[i] / total, bound[i]); break }
        printf "%s; longest of the last minutes %.1f s\n", line, max }' || true
# main-service's warnings from the burst on, by kind (a failed call's exception and message; digits as #)
echo "main-service's warnings since the burst, by kind (top 6):"
tail -n +"$((lines_before + 1))" "$log" | grep -E '^[0-9T:.Z-]+ +WARN ' \
  | sed -E 's/^[^]]*\] \[[^]]*\] [^ ]+ +: //; s/[0-9]+/#/g' | sort | uniq -c | sort -rn | head -6 \
  | awk '{ print } END { if (NR == 0) print "  (none)" }' || true
rm -f "$out"
