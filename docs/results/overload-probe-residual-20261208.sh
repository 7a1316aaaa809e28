#!/usr/bin/env bash
# The overload probe's residual (issue 68 item 2; docs/overload.md, "Not yet"): how many of 6,000 clients that ignore
# Retry-After are not answered within their 20 s, per server profile, over ROUNDS runs each. Each run is
# scripts/overload-probe.sh scopeFork 6000 -- --profile P (512 MiB heap, 2 s calls, admission fixed at 200 with 429,
# on the shared 2 cores: hey, the downstreams and main-service together), a fresh start of the four services; the
# profiles take turns within a round, the order rotating, so that a drift of the machine falls on all three alike.
#
# Usage, from the repository's root: docs/results/overload-probe-residual-20261208.sh [ROUNDS] [OUT]
#   ROUNDS: runs per profile (default 10); OUT: the folder for each run's log and runs.tsv (default
#   results/overload-probe-residual)
# About 70 s per run: 10 rounds of 3 profiles took 35 minutes on 2 cores. Needs what the probe needs (hey, jq, curl).
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-10}
out=${2:-results/overload-probe-residual}
[[ $rounds =~ ^[1-9][0-9]*$ ]] || { echo "ROUNDS must be a positive whole number, got '$rounds'" >&2; exit 2; }
mkdir -p "$out"
tsv=$out/runs.tsv
# answered: every status hey received; late: hey's client timeouts (no answer in 20 s); other: other client errors
echo -e "profile\tround\tanswered\tok\trefused_429\tstatus_5xx\tlate\tother_errors\tanswered_share_pct\talive\tooms\tfirst_normal_s" >"$tsv"
profiles=(virtual platform netty)
for round in $(seq 1 "$rounds"); do
  for k in 0 1 2; do
    profile=${profiles[$(( (round + k) % 3 ))]}
    log=$out/$profile-$round.log
    echo "== $(date +%T) round $round of $rounds: $profile"
    scripts/overload-probe.sh scopeFork 6000 -- --profile "$profile" >"$log" 2>&1 || echo "   the probe failed: $log"
    awk -v p="$profile" -v r="$round" '
      /^ +\[[0-9]+\]\t +[0-9]+ responses/ { n = $1; gsub(/[][]/, "", n); s = $1; gsub(/[][]/, "", s)
        answered += $2; if (s == 200) ok += $2; else if (s == 429) refused += $2; else if (s >= 500) fivexx += $2 }
      /^ +\[[0-9]+\]\t/ && !/responses$/ { n = $1; gsub(/[][]/, "", n)
        if ($0 ~ /Timeout|deadline exceeded/) late += n; else other += n }
      /^main-service: peak RSS/ { match($0, /alive: [a-z]+/); alive = substr($0, RSTART + 7, RLENGTH - 7)
        match($0, /log: [0-9]+/); ooms = substr($0, RSTART + 5, RLENGTH - 5)
        match($0, /answer [^ ]+ s/); first = substr($0, RSTART + 7, RLENGTH - 9) }
      END { total = answered + late + other
        printf "%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%.3f\t%s\t%s\t%s\n", p, r, answered, ok, refused, fivexx, late, other,
          total ? 100 * answered / total : 0, alive ? alive : "?", ooms == "" ? "?" : ooms, first ? first : "none" }
    ' "$log" | tee -a "$tsv"
  done
done

echo "== per profile over $rounds runs: requests without an answer in 20 s (min-median-max), runs with none, answered share"
awk -F'\t' 'NR > 1 { late[$1] = late[$1] " " $7; share[$1] = share[$1] " " $9; n[$1]++
                     if ($7 == 0) clean[$1]++; if ($10 != "yes" || $11 != 0) bad[$1]++ }
  function med(list,   a, k, i, j, t) { k = split(list, a, " "); for (i = 2; i <= k; i++) for (j = i; j > 1 && a[j-1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t }
    return a[1] "-" (k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2) "-" a[k] }
  END { for (p in n) printf "%s: %d runs; late %s; %d of %d with none late; answered %% %s; runs dead or with an OutOfMemoryError: %d\n",
          p, n[p], med(late[p]), clean[p], n[p], med(share[p]), bad[p] }' "$tsv" | sort | tee "$out/summary.txt"
