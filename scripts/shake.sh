#!/usr/bin/env bash
# Shakes the test suite for flakes (issue 41): runs ./mvnw -B verify (or the Maven arguments given) RUNS times, each
# with every core kept busy beside it by stress-ng (CPU hogs at normal priority, as a newcomer's IDE, browser or a
# second build would be), and lists every test that failed or errored at least once, with its run and message.
# A test that fails only here depends on timing: fix it at its cause, or give a timing assertion its margin from a
# measurement stated in the test.
# Usage: scripts/shake.sh [--runs N (3)] [--hogs N (the cores)] [--out DIR] [--lab-test] [-- maven arguments]
#   (default -B verify -Dmaven.test.failure.ignore=true: every module runs, whatever fails before it)
#   --lab-test: each run is the README's ./lab test (the k8s checks, ./mvnw -B verify plus the arguments, the cluster)
#   e.g. scripts/shake.sh --runs 3 -- -B verify -pl main-service -am
# Needs: stress-ng (apt-get install -y stress-ng), python3; a machine with nothing else to measure: it loads every core.
set -euo pipefail
cd "$(dirname "$0")/.."
usage() { sed -n 7,11p "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
runs=3 hogs=$(nproc) out="" lab_test=false
while [[ $# -gt 0 ]]; do
  case $1 in
    --runs) runs=${2:-}; shift 2 ;;
    --hogs) hogs=${2:-}; shift 2 ;;
    --out) out=${2:-}; shift 2 ;;
    --lab-test) lab_test=true; shift ;;
    --) shift; break ;;
    -h|--help) usage ;;
    *) echo "unknown option '$1'" >&2; usage ;;
  esac
done
[[ $runs =~ ^[1-9][0-9]*$ && $hogs =~ ^[0-9]+$ ]] || { echo "--runs is a whole number > 0, --hogs >= 0" >&2; usage; }
maven_args=("$@")
if $lab_test; then
  command=(./lab test "${maven_args[@]}")
else
  # a failed test must not stop the build at its module: the later modules' tests are shaken too (their reports,
  # read below, list every failure)
  [[ ${#maven_args[@]} -gt 0 ]] || maven_args=(-B verify -Dmaven.test.failure.ignore=true)
  command=(./mvnw "${maven_args[@]}")
fi
command -v stress-ng >/dev/null || { echo "needs stress-ng: apt-get install -y stress-ng" >&2; exit 2; }
command -v python3 >/dev/null || { echo "needs python3: apt-get install -y python3" >&2; exit 2; }
out=${out:-target/shake-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$out"
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
export PATH="$JAVA_HOME/bin:$PATH"
./lab wrapper   # a fresh clone has no .mvn/wrapper/maven-wrapper.properties (git-ignored): ./lab writes it

hog="" statuses=()
trap '[[ -n $hog ]] && kill "$hog" 2>/dev/null || true' EXIT
for run in $(seq 1 "$runs"); do
  # bounded: stress-ng stops by itself after 3 h if this script is killed before it can stop it
  [[ $hogs -gt 0 ]] && { stress-ng --cpu "$hogs" --timeout 3h >/dev/null 2>&1 & hog=$!; }
  started=$(date +%s.%N)
  echo "== run $run/$runs: ${command[*]} beside stress-ng --cpu $hogs (0: none) (log: $out/run-$run.log)"
  status=0
  "${command[@]}" >"$out/run-$run.log" 2>&1 || status=$?
  [[ -n $hog ]] && { kill "$hog" 2>/dev/null || true; wait "$hog" 2>/dev/null || true; hog=""; }
  statuses+=("$status")
  echo "   exit $status after $(( ($(date +%s) - ${started%.*}) / 60 )) min"
  mkdir -p "$out/reports-$run"
  # the reports of this run only (a module the build did not reach keeps none newer than its start)
  find . -path ./"$out" -prune -o \( -path '*/target/surefire-reports/TEST-*.xml' -o \
    -path '*/target/failsafe-reports/TEST-*.xml' \) -newermt "@$started" -print0 \
    | xargs -0 -r cp -t "$out/reports-$run"
done

python3 - "$out" "$runs" "${statuses[@]}" <<'EOF'
import glob, os, sys, xml.etree.ElementTree as ET
out, runs, statuses = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
failed, total = {}, 0
for run in range(1, runs + 1):
    for path in glob.glob(os.path.join(out, f"reports-{run}", "TEST-*.xml")):
        for case in ET.parse(path).getroot().iter("testcase"):
            total += 1
            for kind in ("failure", "error"):
                for problem in case.findall(kind):
                    name = f"{case.get('classname')}.{case.get('name')}"
                    message = (problem.get("message") or problem.get("type") or "").strip().splitlines()
                    failed.setdefault(name, []).append((run, kind, message[0][:200] if message else ""))
print(f"\n{total} test results in {runs} run(s); {len(failed)} test(s) failed at least once")
for name, problems in sorted(failed.items()):
    print(f"- {name}: {len(problems)} of {runs} runs")
    for run, kind, message in problems:
        print(f"    run {run} ({kind}): {message}")
broken = [run for run, status in enumerate(statuses, 1) if status != "0"]
for run in broken:
    print(f"- run {run}: Maven exited {statuses[run - 1]} (see {out}/run-{run}.log)")
sys.exit(1 if failed or broken else 0)
EOF
