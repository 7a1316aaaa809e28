#!/usr/bin/env bash
# Which outbound client for the `reactive` strategy on Tomcat (issue 67 item 1; docs/strategies.md): HttpClient 5's
# async client or Reactor Netty's, on Tomcat's virtual request threads at 1,000 and 5,000 clients. Interleaved forks:
# each round runs bench/matrices/reactive-client-tomcat.yaml once per client, in one fresh start of the services
# (--forks 1), the order alternating per round, so that a drift of the machine's speed falls on both clients alike;
# each client's --out gains one fork per round (./lab bench adds a run to an --out that holds the same command's
# earlier forks), then ./lab compare of the two (exact Mann-Whitney U over the fork medians, bootstrap of the ratio).
#
# Usage, from the repository's root: docs/results/reactive-client-tomcat-interleaved-20261207.sh [ROUNDS] [OUT]
#   ROUNDS: rounds, i.e. forks per client (default 5; 5 against 5 is the fewest that can reach p < 0.05)
#   OUT:    where the two clients' folders and compare.md go (default results/reactive-client-tomcat-interleaved)
# About 3.5 minutes per run on 2 cores (a start, the warm-up, 2 cells): 5 rounds take about 36 minutes.
set -euo pipefail
rounds=${1:-5}
out=${2:-results/reactive-client-tomcat-interleaved}
[[ $rounds =~ ^[1-9][0-9]*$ ]] || { echo "ROUNDS must be a positive whole number, got '$rounds'" >&2; exit 2; }

for round in $(seq 1 "$rounds"); do
  order=(httpclient5 reactor-netty)
  (( round % 2 == 0 )) && order=(reactor-netty httpclient5)
  for client in "${order[@]}"; do
    echo "== $(date +%T) round $round of $rounds: $client"
    ./lab bench --matrix bench/matrices/reactive-client-tomcat.yaml --main-property "fanout.reactive.client=$client" \
      --out "$out/$client" --forks 1
  done
done
./lab compare "$out/httpclient5" "$out/reactor-netty" | tee "$out/compare.md"
