#!/usr/bin/env bash
# The lab on a local kind cluster (k8s/README.md, "Run on kind"). ./lab kind up|down|load runs this script.
#   scripts/kind.sh up [--build]   create the cluster (k8s/kind-config.yaml) unless it exists, build the images
#                                  (and the jars if missing, or always with --build), load them into the node,
#                                  kubectl apply -k k8s, wait for every rollout, print the URLs and hey lines
#   scripts/kind.sh load           run the in-cluster hey Job (k8s/components/load-test) and follow its output
#   scripts/kind.sh down           delete the cluster
# Needs kind, docker (running) and kubectl on PATH; the JDK 25 for the jars (JAVA_HOME).
set -euo pipefail
cd "$(dirname "$0")/.."

cluster=fanout-lab            # = name: in k8s/kind-config.yaml
context=kind-$cluster
KUBECTL=(kubectl --context "$context")
source scripts/k8s-deploy.sh  # lab_apply, lab_wait, lab_summary: shared with scripts/cluster.sh
kc() { lab_kc "$@"; }

need() {
  command -v "$1" >/dev/null && return
  echo "$1 is not installed: $2" >&2
  exit 1
}
need_tools() {
  need docker "install Docker: https://docs.docker.com/get-docker/"
  need kind "install kind: https://kind.sigs.k8s.io/docs/user/quick-start/#installation"
  need kubectl "install kubectl: https://kubernetes.io/docs/tasks/tools/"
  docker version >/dev/null 2>&1 || { echo "docker is installed but no Docker engine answers: start Docker" >&2; exit 1; }
}
cluster_exists() { kind get clusters 2>/dev/null | grep -qx "$cluster"; }

build_jars() {
  local missing=false
  for m in orders-service products-service accounts-service main-service; do
    [[ -f $m/target/$m.jar ]] || missing=true
  done
  if [[ ${1:-} == --build ]] || $missing; then
    echo "building the jars (./mvnw -B -q -DskipTests package) ..."
    ./mvnw -B -q -DskipTests package
  fi
}

load_images() {   # kind load docker-image every image that scripts/build-images.sh built (bash 3.2: no mapfile)
  local image
  for image in $(scripts/build-images.sh --list); do
    if docker image inspect "$image" >/dev/null 2>&1; then
      kind load docker-image --name "$cluster" "$image" >/dev/null
      echo "loaded $image into kind"
    fi
  done
}

up() {
  need_tools
  build_jars "${1:-}"
  scripts/build-images.sh
  local existed=false
  if cluster_exists; then
    existed=true
    echo "kind cluster $cluster exists; reusing it"
  else
    kind create cluster --config k8s/kind-config.yaml --wait 120s
  fi
  load_images
  lab_apply k8s
  if $existed; then   # same image tags, new content: restart the lab's pods onto the images just loaded
    kc rollout restart deployment -l app.kubernetes.io/part-of=fanout-lab
  fi
  lab_wait 300
  echo
  echo "fanout-lab runs on kind (namespace $lab_namespace):"
  lab_summary localhost
  cat <<TEXT
Or inside the cluster, every strategy against both:  scripts/kind.sh load
Knobs: edit k8s/base/main-service.env or downstream.env, then  kubectl --context $context apply -k k8s
Remove everything:  scripts/kind.sh down
TEXT
}

load() {
  need_tools
  cluster_exists || { echo "no kind cluster $cluster: scripts/kind.sh up first" >&2; exit 1; }
  scripts/build-images.sh --hey
  load_images
  kc delete job hey-load --ignore-not-found   # a Job runs once; a new run is a new Job
  kubectl --context "$context" apply -k k8s/tests/with-load-test
  echo "following the hey-load Job (about 6 minutes; Ctrl-C stops following, not the Job) ..."
  kc logs -f job/hey-load --pod-running-timeout=2m
}

down() {
  need kind "install kind: https://kind.sigs.k8s.io/docs/user/quick-start/#installation"
  if cluster_exists; then kind delete cluster --name "$cluster"; else echo "no kind cluster $cluster"; fi
}

case ${1:-} in
  up) up "${2:-}" ;;
  load) load ;;
  down) down ;;
  *) echo "usage: $0 up [--build] | load | down" >&2; exit 2 ;;
esac
