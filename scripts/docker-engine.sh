#!/usr/bin/env bash
# Starts or stops a Docker engine on a machine where none runs (CI, these lab machines): installs Debian's
# docker.io if dockerd is missing, starts dockerd in the background and waits until `docker version` answers.
# Usage: scripts/docker-engine.sh start|stop|status
# The engine's PID and log live in $DOCKER_ENGINE_DIR (default /tmp/fanout-lab-dockerd); `stop` ends only
# that PID. Legacy builder (DOCKER_BUILDKIT=0): BuildKit would try to pull its frontend image.
set -euo pipefail

dir=${DOCKER_ENGINE_DIR:-/tmp/fanout-lab-dockerd}
sock=${DOCKER_ENGINE_SOCKET:-/var/run/docker.sock}
export DOCKER_HOST=unix://$sock

case ${1:-} in
  start)
    if docker version >/dev/null 2>&1; then echo "docker engine already answers at $DOCKER_HOST"; exit 0; fi
    if ! command -v dockerd >/dev/null; then
      command -v apt-get >/dev/null || { echo "dockerd missing and no apt-get: install Docker first" >&2; exit 1; }
      echo "installing docker.io (Debian) ..."
      DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends docker.io >/dev/null
    fi
    mkdir -p "$dir"
    # setsid: the engine must outlive this script, and must not get the caller's SIGINT
    setsid dockerd --host "$DOCKER_HOST" --pidfile "$dir/dockerd.pid" >"$dir/dockerd.log" 2>&1 < /dev/null &
    for _ in $(seq 1 60); do
      docker version >/dev/null 2>&1 && { echo "docker engine up at $DOCKER_HOST (log: $dir/dockerd.log)"; exit 0; }
      sleep 1
    done
    echo "dockerd did not answer within 60 s; last log lines:" >&2; tail -20 "$dir/dockerd.log" >&2; exit 1
    ;;
  stop)
    if [[ -f $dir/dockerd.pid ]]; then
      pid=$(cat "$dir/dockerd.pid")
      kill "$pid" 2>/dev/null || true
      for _ in $(seq 1 30); do kill -0 "$pid" 2>/dev/null || { echo "docker engine stopped"; exit 0; }; sleep 1; done
      echo "dockerd (pid $pid) still running after 30 s" >&2; exit 1
    fi
    echo "no dockerd started by this script ($dir/dockerd.pid missing)"
    ;;
  status)
    docker version --format 'engine {{.Server.Version}} at '"$DOCKER_HOST" 2>/dev/null || { echo "no engine at $DOCKER_HOST"; exit 1; }
    ;;
  *)
    echo "usage: $0 start|stop|status" >&2; exit 2 ;;
esac
