#!/usr/bin/env bash
# The footprint snapshot's race, shown on one JVM (2026-11-26; output: footprint-snapshot-race-20261126.txt): under
# 1,000 clients, GC.run then GC.heap_info (two attaches, the old snapshot) against GC.class_histogram (the live heap
# counted in its own full GC, the new one), six rounds. Run: bash docs/results/footprint-snapshot-race-20261126.sh
# Starts ./lab up (2 GiB fixed heap, NMT), loads 127.0.0.1 with hey for 100 s, then ./lab down.
set -u
cd "$(dirname "$0")/../.."
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
strategy=${1:-completableFutureWithVirtualTaskExecutor}; clients=${2:-1000}
./lab up --profile virtual --latency-ms 2000 --pool-size 1000 --jvm-option=-Xms2g --jvm-option=-Xmx2g \
  --jvm-option=-XX:NativeMemoryTracking=summary > /tmp/snap-up.log 2>&1 || { tail /tmp/snap-up.log; exit 1; }
pid=$(grep -oP '^  main-service .*\(pid \K\d+' /tmp/snap-up.log)   # the one ./lab up started
echo "main-service pid $pid, $strategy, $clients clients"
hey -z 100s -c $clients -t 30 "http://127.0.0.1:2222/backoffice/api/v1/backoffice/orders?concurrency=$strategy" > /tmp/snap-hey.txt 2>&1 &
hp=$!
sleep 25
for i in 1 2 3 4 5 6; do
  t0=$(date +%s.%N); jcmd $pid GC.run >/dev/null; t1=$(date +%s.%N)
  used=$(jcmd $pid GC.heap_info | grep -oP 'heap +total.*?used \K\d+(?=K)' | head -1); t2=$(date +%s.%N)
  hist=$(jcmd $pid GC.class_histogram | tail -1 | awk '{print $3}'); t3=$(date +%s.%N)
  used2=$(jcmd $pid GC.heap_info | grep -oP 'heap +total.*?used \K\d+(?=K)' | head -1)
  printf "%d  GC.run %.2fs  heap_info after it (%.2fs later): %.1f MiB  class_histogram total: %.1f MiB (%.2fs)  heap_info right after the histogram's GC: %.1f MiB\n" \
    $i $(echo "$t1-$t0"|bc) $(echo "$t2-$t1"|bc) $(echo "$used/1024"|bc -l) $(echo "$hist/1048576"|bc -l) $(echo "$t3-$t2"|bc) $(echo "$used2/1024"|bc -l)
  sleep 5
done
wait $hp
grep -E "Requests/sec|Status code|\[200\]" /tmp/snap-hey.txt | head -3
./lab down > /dev/null 2>&1
