#!/usr/bin/env bash
# What tracing costs main-service per request (docs/overhead.md, "Tracing"): starts a Zipkin (the jar bench's build
# copies to bench/target/zipkin/) on 127.0.0.1:9411 for the matrix's reporting cells, runs
# ./lab bench --matrix bench/matrices/tracing.yaml with the options given, stops Zipkin by pid, and prints how many
# spans Zipkin accepted (none would mean the reporting cells measured nothing but failed reports).
# Usage: scripts/tracing-cost.sh [./lab bench options, e.g. --forks 3 --out DIR]
# Needs: curl; port 9411 free (./lab down stops a --with-zipkin one). All traffic stays on 127.0.0.1; the bench's
# cells are bounded by the matrix (about 12 minutes per fork on 2 cores).
set -euo pipefail
cd "$(dirname "$0")/.."
[[ ${1:-} == -h || ${1:-} == --help ]] && { sed -n 2,8p "$0" | sed 's/^# \{0,1\}//'; exit 0; }
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
jar=bench/target/zipkin/zipkin-server.jar
[[ -f $jar ]] || { echo "$jar is missing: run ./lab build (bench's package copies Zipkin's jar there)" >&2; exit 2; }
if curl -s -o /dev/null --max-time 2 http://127.0.0.1:9411/health; then
  echo "port 9411 is taken (a ./lab up --with-zipkin? ./lab down stops it)" >&2; exit 2
fi
mkdir -p .lab/logs
# the same command as ./lab up --with-zipkin's (lab.fanout.bench.system.Zipkin)
"$JAVA_HOME/bin/java" -Xms64m -Xmx256m -XX:+ExitOnOutOfMemoryError -jar "$jar" --zipkin.storage.type=mem \
  --zipkin.storage.mem.max-spans=50000 '--armeria.ports[0].ip=127.0.0.1' '--armeria.ports[0].port=9411' \
  '--armeria.ports[0].protocols[0]=http' >.lab/logs/zipkin-tracing-cost.log 2>&1 &
zipkin=$!
trap 'kill "$zipkin" 2>/dev/null; wait "$zipkin" 2>/dev/null || true' EXIT
for _ in $(seq 120); do
  curl -s -o /dev/null --max-time 2 http://127.0.0.1:9411/health && break
  kill -0 "$zipkin" 2>/dev/null || { echo "zipkin exited: see .lab/logs/zipkin-tracing-cost.log" >&2; exit 1; }
  sleep 1
done
echo "zipkin (pid $zipkin) on 127.0.0.1:9411"
./lab bench --matrix bench/matrices/tracing.yaml "$@"
spans=$(curl -s --max-time 5 http://127.0.0.1:9411/prometheus | awk '/^zipkin_collector_spans_total/ {s += $2} END {printf "%d", s}')
echo "zipkin accepted $spans spans during the run"
