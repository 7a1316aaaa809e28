#!/usr/bin/env bash
# docs/overload.md, "Where the memory goes at the cliff": class histograms (live objects, counted in a full GC) of
# main-service idle, 10 s and 15 s into a burst of N hey clients (25 s, -t 20) on scopeFork; 512 MiB heap, 2 s latency,
# pool 30,000; ./lab up options after N (the doc's run: 6000 --max-in-flight 256). Writes /tmp/oom/h2-N-*.txt; stops
# ./lab up before and after. Load to 127.0.0.1 only, bounded by hey -z 25s.
set -uo pipefail
cd "$(dirname "$0")/../.."
ulimit -n "$(ulimit -Hn)"
N=$1; shift
./lab down >/dev/null 2>&1
./lab up --latency-ms 2000 --pool-size 30000 --jvm-option=-Xms512m --jvm-option=-Xmx512m "$@" >/dev/null
main=$(jq -r '.processes["main-service"].pid' .lab/run/system.json)
url="http://127.0.0.1:2222/backoffice/api/v1/backoffice/orders?concurrency=scopeFork"
curl -sf "$url" >/dev/null
mkdir -p /tmp/oom
J=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/jcmd
$J $main GC.class_histogram > /tmp/oom/h2-$N-idle.txt
hey -z 25s -t 20 -c $N "$url" > /tmp/oom/h2-hey-$N.txt 2>&1 &
sleep 10; timeout 30 $J $main GC.class_histogram > /tmp/oom/h2-$N-t10.txt
sleep 5; timeout 30 $J $main GC.class_histogram > /tmp/oom/h2-$N-t15.txt
wait
./lab down >/dev/null 2>&1
