#!/usr/bin/env bash
# Regenerates the trace pictures of docs/observability.md ("One request, drawn by Zipkin"): ZipkinTracesIT
# (system-tests) starts Zipkin and the four service jars on free ports, sends one traced request per strategy, a
# hedged one and a scopeFork request whose orders call fails, checks each trace on Zipkin's API and on its page in
# headless Chromium, and saves each page as DIR/<name>.png (sequential.png, scopeFork.png, scopeFork-hedged.png, ...).
# Needs: JDK 25 (JAVA_HOME, else /usr/lib/jvm/temurin-25*), chromium (apt-get install -y chromium). About 3 minutes
# on 2 cores, most of it the build and four JVMs starting.
# Usage: scripts/trace-pictures.sh [DIR]   (default: docs/traces)
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(realpath -m "${1:-docs/traces}")
command -v chromium >/dev/null || { echo "chromium is not installed: apt-get install -y chromium" >&2; exit 1; }
if [[ -z "${JAVA_HOME:-}" ]]; then
  for jdk in /usr/lib/jvm/temurin-25*; do [[ -x $jdk/bin/java ]] && export JAVA_HOME=$jdk; done
fi
[[ -n "${JAVA_HOME:-}" ]] || { echo "JDK 25 not found: export JAVA_HOME=/path/to/jdk-25" >&2; exit 1; }
mkdir -p "$out"
./mvnw -B -q -pl system-tests -am verify -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false \
  -Dit.test=ZipkinTracesIT -Dfailsafe.failIfNoSpecifiedTests=false -Dlab.traces.dir="$out"
ls -l "$out"/*.png
