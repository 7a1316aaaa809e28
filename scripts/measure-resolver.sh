#!/usr/bin/env bash
# What binding the Simulation knobs costs (docs/benchmarks.md): orders-service's CPU-ms per request with the lab's
# SimulationArgumentResolver (A) and with Spring MVC's own @Valid record binding (B, a throwaway build of HEAD in a
# temporary git worktree with the resolver unregistered). Each run: the jar alone on 127.0.0.1, latency 0, 30 s of
# hey -c 50 to warm the JIT, then 20 s measured; CPU = utime + stime of its pid (/proc/<pid>/stat) / answered requests.
# Usage: scripts/measure-resolver.sh [runs, default 3]    Needs: hey, bc, JDK 25 (JAVA_HOME), a quiet machine.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
[[ $runs =~ ^[1-9][0-9]?$ ]] || { echo "usage: $0 [runs 1-99]" >&2; exit 2; }
command -v hey >/dev/null && command -v bc >/dev/null || { echo "needs hey and bc: apt-get install -y hey bc" >&2; exit 2; }
java=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java
work=$(mktemp -d)
wt="$work/throwaway"
trap 'git worktree remove --force "$wt" 2>/dev/null || true; rm -rf "$work"' EXIT

echo "building A (HEAD) and B (resolver unregistered) ..."
./mvnw -B -q package -DskipTests -pl orders-service -am
cp orders-service/target/orders-service.jar "$work/A.jar"
git worktree add -q --detach "$wt" HEAD
mkdir -p "$wt/.mvn/wrapper" && cp .mvn/wrapper/maven-wrapper.properties "$wt/.mvn/wrapper/"
sed -i 's/resolvers.add(new SimulationArgumentResolver(.*));/\/\/ unregistered: plain @Valid binding/' \
  "$wt/service-common/src/main/java/lab/fanout/common/ServiceCommonAutoConfiguration.java"
grep -q 'unregistered: plain @Valid binding' "$wt/service-common/src/main/java/lab/fanout/common/ServiceCommonAutoConfiguration.java" \
  || { echo "could not unregister the resolver: ServiceCommonAutoConfiguration changed" >&2; exit 1; }
(cd "$wt" && ./mvnw -B -q package -DskipTests -pl orders-service -am)
cp "$wt/orders-service/target/orders-service.jar" "$work/B.jar"

port=18482 mport=18483
url="http://127.0.0.1:$port/order/api/v1/orders"
for run in $(seq "$runs"); do
  for v in A B; do
    "$java" --enable-preview -Xmx512m -jar "$work/$v.jar" --server.port=$port --server.address=127.0.0.1 \
      --management.server.port=$mport --management.server.address=127.0.0.1 \
      --downstream.latency=0ms --logging.level.root=WARN > "$work/$v.log" 2>&1 &
    pid=$!
    for _ in $(seq 60); do curl -sf "$url" >/dev/null 2>&1 && break; sleep 1; done
    hey -z 30s -c 50 "$url" >/dev/null
    j0=$(awk '{print $14 + $15}' "/proc/$pid/stat")
    hey -z 20s -c 50 "$url" > "$work/hey.txt"
    j1=$(awk '{print $14 + $15}' "/proc/$pid/stat")
    n=$(awk '/\[200\]/ {print $2}' "$work/hey.txt")
    rps=$(awk '/Requests\/sec/ {print $2}' "$work/hey.txt")
    # USER_HZ is 100: one jiffy is 10 ms
    echo "run $run $v: $rps req/s, $(echo "scale=3; ($j1 - $j0) * 10 / $n" | bc) CPU-ms per request"
    kill "$pid"; wait "$pid" 2>/dev/null || true
  done
done
