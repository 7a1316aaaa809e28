#!/usr/bin/env bash
# The lab on a local kind cluster (k8s/README.md, "Run on kind"). ./lab kind up|load|status|down runs this script.
#   scripts/kind.sh up [--build] [--small]
#       build the jars if missing (always with --build) and the images; create the cluster (k8s/kind-config.yaml)
#       unless it exists; check that the lab's CPU and memory requests fit the node (scripts/k8s-fit.sh; stops with
#       the fix if not); load the images into the node; kubectl apply -k k8s (--small: k8s/overlays/small, smaller
#       requests and memory limits); wait for every rollout; print the URLs and hey lines
#   scripts/kind.sh load     run the in-cluster hey Job (k8s/components/load-test) and follow its output
#   scripts/kind.sh status   short: the cluster, the lab's Deployments, pods waiting for an image the node lacks or
#                            for room (Pending), the URLs; for a cluster applied by hand too (kubectl apply -k k8s)
#   scripts/kind.sh down     delete the cluster
# Needs kind, docker (running), kubectl and jq on PATH; the JDK 25 for the jars (JAVA_HOME).
set -euo pipefail
cd "$(dirname "$0")/.."

cluster=fanout-lab            # = name: in k8s/kind-config.yaml
context=kind-$cluster
KUBECTL=(kubectl --context "$context")
lab_images_fix="./lab kind up   (builds the images and kind-loads them into the node; or scripts/kind.sh up)"
source scripts/k8s-deploy.sh  # lab_apply, lab_wait, lab_summary, lab_report_missing_images: shared with scripts/cluster.sh
kc() { lab_kc "$@"; }
usage() { awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; }

need() {
  command -v "$1" >/dev/null && return
  echo "$1 is not installed: $2" >&2
  exit 1
}
need_tools() {
  need docker "install Docker: https://docs.docker.com/get-docker/"
  need kind "install kind: https://kind.sigs.k8s.io/docs/user/quick-start/#installation"
  need kubectl "install kubectl: https://kubernetes.io/docs/tasks/tools/"
  need jq "install jq (the fit check reads the node's JSON): https://jqlang.org/download/"
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

# fits ENTRY: do the lab's requests (ENTRY and the load Job) fit the node beside what already runs there? Stops
# with by how much and the fix (scripts/k8s-fit.sh) instead of leaving pods Pending.
fits() {
  local dir status=0
  dir=$(mktemp -d)
  kubectl --context "$context" get nodes -o json >"$dir/nodes.json"
  kubectl --context "$context" get pods -A -o json >"$dir/pods.json"
  scripts/k8s-fit.sh --node "$dir/nodes.json" --pods "$dir/pods.json" k8s/tests/with-load-test "$1" || status=$?
  rm -rf "$dir"
  return "$status"
}

up() {
  local build='' entry=k8s
  while (($#)); do
    case $1 in
      --build) build=--build ;;
      --small) entry=k8s/overlays/small ;;
      *) usage >&2; exit 2 ;;
    esac
    shift
  done
  need_tools
  build_jars "$build"
  scripts/build-images.sh
  local existed=false
  if cluster_exists; then
    existed=true
    echo "kind cluster $cluster exists; reusing it"
  else
    kind create cluster --config k8s/kind-config.yaml --wait 120s
  fi
  fits "$entry" || exit 1
  load_images
  lab_apply "$entry"
  if $existed; then   # same image tags, new content: restart the lab's pods onto the images just loaded
    kc rollout restart deployment -l "$lab_services"   # not Prometheus: its store is an emptyDir
  fi
  lab_wait 300
  echo
  echo "fanout-lab runs on kind (namespace $lab_namespace):"
  lab_summary localhost
  cat <<TEXT
Or inside the cluster, every strategy against all three:  scripts/kind.sh load
Knobs: edit k8s/base/main-service.env or downstream.env, then  kubectl --context $context apply -k $entry
Remove everything:  scripts/kind.sh down
TEXT
}

load() {
  need_tools
  cluster_exists || { echo "no kind cluster $cluster: scripts/kind.sh up first" >&2; exit 1; }
  scripts/build-images.sh --hey
  load_images
  kc delete job hey-load --ignore-not-found   # a Job runs once; a new run is a new Job
  # the Job alone (its label), so that the rest stays as `up` applied it (k8s or k8s/overlays/small)
  kubectl --context "$context" apply -k k8s/tests/with-load-test -l app.kubernetes.io/component=load-generator
  echo "following the hey-load Job (about 6 minutes; Ctrl-C stops following, not the Job) ..."
  kc logs -f job/hey-load --pod-running-timeout=2m
}

status() {
  need kind "install kind: https://kind.sigs.k8s.io/docs/user/quick-start/#installation"
  need kubectl "install kubectl: https://kubernetes.io/docs/tasks/tools/"
  cluster_exists || { echo "no kind cluster $cluster: ./lab kind up creates it and deploys the lab"; exit 1; }
  if ! kc get namespace "$lab_namespace" >/dev/null 2>&1; then
    echo "kind cluster $cluster runs, without the lab (namespace $lab_namespace): ./lab kind up"; exit 1
  fi
  echo "kind cluster $cluster, namespace $lab_namespace:"
  kc get deployments,jobs 2>/dev/null | sed 's/^/  /'
  lab_report_missing_images || exit 1
  local pending
  pending=$(kc get pods --field-selector=status.phase=Pending \
    -o jsonpath='{range .items[*]}{.metadata.name}{" "}{.status.conditions[?(@.reason=="Unschedulable")].message}{"\n"}{end}' |
    awk 'NF > 1')
  if [[ -n $pending ]]; then
    echo "Pods that no node has room for (their requests do not fit: scripts/k8s-fit.sh --help; ./lab kind up checks it):" >&2
    sed 's/^/  /' <<<"$pending" >&2
    echo "Fix: give Docker more CPUs or memory, or the small overlay: ./lab kind up --small" >&2
    exit 1
  fi
  if kc wait --for=condition=Available deployment --all --timeout=1s >/dev/null 2>&1; then
    echo "every Deployment is available:"
    lab_summary localhost
  else
    echo "not every Deployment is available yet (kubectl --context $context -n $lab_namespace get pods)"
    exit 1
  fi
}

down() {
  need kind "install kind: https://kind.sigs.k8s.io/docs/user/quick-start/#installation"
  if cluster_exists; then kind delete cluster --name "$cluster"; else echo "no kind cluster $cluster"; fi
}

case ${1:-} in
  up) shift; up "$@" ;;
  load) load ;;
  status) status ;;
  down) down ;;
  -h|--help|help) usage ;;
  *) usage >&2; exit 2 ;;
esac
