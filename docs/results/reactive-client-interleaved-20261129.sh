#!/usr/bin/env bash
# Which outbound client for the `reactive` strategy on Netty (docs/strategies.md): HttpClient 5's async client (the
# default) or Reactor Netty's. Interleaved forks: each round runs bench/matrices/reactive-client.yaml once per client,
# each in one fresh start of the services, the order alternating per round, so that a drift of the machine's speed
# falls on both clients alike (two runs one after the other would put it on one). Then each client's rounds are
# merged into one results CSV whose `fork` column is the round, its tables written by ./lab report, and the two
# compared by ./lab compare (exact Mann-Whitney U over the fork medians).
#
# Usage, from the repository's root: docs/results/reactive-client-interleaved-20261129.sh [ROUNDS] [OUT]
#   ROUNDS: rounds, i.e. forks per client (default 5; 5 against 5 is the fewest that can reach p < 0.05)
#   OUT:    where the runs and the merged results go (default results/reactive-client-interleaved)
# About 4 minutes per run on 2 cores (a start, the warm-up, 2 cells): 5 rounds take about 40 minutes.
set -euo pipefail
rounds=${1:-5}
out=${2:-results/reactive-client-interleaved}
[[ $rounds =~ ^[1-9][0-9]*$ ]] || { echo "ROUNDS must be a positive whole number, got '$rounds'" >&2; exit 2; }

for round in $(seq 1 "$rounds"); do
  order=(httpclient5 reactor-netty)
  (( round % 2 == 0 )) && order=(reactor-netty httpclient5)
  for client in "${order[@]}"; do
    echo "== round $round of $rounds: $client"
    ./lab bench --matrix bench/matrices/reactive-client.yaml --main-property "fanout.reactive.client=$client" \
      --out "$out/$client-$round"
  done
done

for client in httpclient5 reactor-netty; do
  python3 - "$out" "$client" "$rounds" <<'PY'
import csv, sys
out, client, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
rows = []
for rnd in range(1, rounds + 1):
    with open(f"{out}/{client}-{rnd}/results.csv", newline="") as f:
        reader = csv.DictReader(f)
        header = reader.fieldnames
        rows += [dict(row, fork=str(rnd)) for row in reader]
with open(f"{out}/{client}.csv", "w", newline="") as f:
    writer = csv.DictWriter(f, fieldnames=header, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
PY
  # the first round's markdown keeps the intro; its Forks line and command say what the merged file holds
  sed -e "s|^Load average (1/5/15 min) before|Load average (1/5/15 min, round 1's run) before|" \
      -e "s|^Forks: .*|Forks: $rounds (each cell in $rounds fresh starts of the services, one per round, the two clients' runs interleaved; intervals over the forks' medians)  |" \
      -e "s|^Command: .*|Command: \`docs/results/reactive-client-interleaved-20261129.sh $rounds\` (the rounds' runs of \`./lab bench --matrix bench/matrices/reactive-client.yaml --main-property fanout.reactive.client=$client\`, merged)  |" \
      "$out/$client-1/results.md" > "$out/$client.md"
  ./lab report "$out/$client.csv"
done
./lab compare "$out/httpclient5.csv" "$out/reactor-netty.csv" | tee "$out/compare.md"
