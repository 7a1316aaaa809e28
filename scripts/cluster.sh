#!/usr/bin/env bash
# The lab on a real single-node Kubernetes cluster built on this machine from upstream sources (k8s/README.md,
# "A real cluster on this machine"); ./lab cluster ... runs this script.
#   up      build or reuse the Kubernetes binaries, the jars and the images; start the node in its network
#           namespace; import the images into its containerd; kubectl apply -k k8s/tests/cluster (= k8s/ with
#           Prometheus built from source and no Grafana Deployment); wait for every rollout; print how to reach it
#   check [N...]  the checks of scripts/cluster/check.sh (or only checks N), a line each; non-zero exit on a failure
#   down    stop every process `up` started, remove its mounts, network namespace and state
#   exec CMD...   run CMD inside the cluster's network namespace with KUBECONFIG set, e.g.
#           ./lab cluster exec kubectl -n fanout-lab get pods
#   test    up, check, down (down also when up or check fails): what ./lab test runs under CI=true
# Needs root, Go 1.23+, kubectl 1.32+ and Debian's packages named in $packages below (install_hint prints the line).
set -euo pipefail
cd "$(dirname "$0")/.."

packages="hey etcd-server containerd runc containernetworking-plugins iptables conntrack openssl gcc libc6-dev libcap2-bin curl jq docker.io debootstrap"
eval "$(scripts/cluster/node.sh env)"   # ns state node node_ip kubeconfig
in_ns() { nsenter --net="/run/netns/$ns" "$@"; }   # as in node.sh: the network namespace only
KUBECTL=(in_ns kubectl --kubeconfig "$kubeconfig")
source scripts/k8s-deploy.sh           # lab_apply, lab_wait, lab_summary: shared with scripts/kind.sh

# missing_tools: prints what is missing (root, commands); empty when the cluster can run here
missing_tools() {
  [[ $(id -u) == 0 ]] || echo "root"
  local tool
  for tool in ip nsenter iptables openssl etcd containerd runc ctr go kubectl docker gcc setcap curl jq hey; do
    command -v "$tool" >/dev/null || echo "$tool"
  done
  [[ -x /usr/lib/cni/bridge ]] || echo "CNI plugins (/usr/lib/cni/bridge)"
}
install_hint() { echo "as root: apt-get install -y $packages; Go 1.23+ and kubectl 1.32+ on PATH"; }

require_tools() {
  local missing
  missing=$(missing_tools | paste -sd, -)
  [[ -z $missing ]] && return
  echo "cluster: cannot run here, missing: ${missing//,/, }" >&2
  echo "  install: $(install_hint)" >&2
  exit 1
}

images() {   # every image the deployment and the checks use, built here (nothing can be pulled)
  scripts/build-images.sh --list
  scripts/cluster/images.sh --list
  echo debian:bookworm-slim   # the Grafana provisioning check pod (scripts/cluster/check.sh)
}

up() {
  require_tools
  local start=$SECONDS
  scripts/cluster/build-k8s.sh
  scripts/docker-engine.sh start
  docker/make-base-image.sh
  [[ -f main-service/target/main-service.jar && -f bench/target/zipkin/zipkin-server.jar ]] || ./lab build
  scripts/build-images.sh --hey --postgres --zipkin
  scripts/cluster/images.sh
  scripts/cluster/node.sh start
  echo "cluster: importing $(images | wc -l) images into the node's containerd ..."
  # docker save | ctr import keeps the names; kubelet finds fanout-lab/x:tag as the manifests write it
  docker save $(images) | in_ns ctr --address "$state/containerd.sock" -n k8s.io images import - >/dev/null
  lab_apply k8s/tests/cluster
  lab_wait 300
  in_ns kubectl --kubeconfig "$kubeconfig" -n kube-system rollout status deployment/coredns --timeout=120s
  echo
  echo "fanout-lab runs on a single-node Kubernetes $(scripts/cluster/build-k8s.sh --print-dir | sed 's|.*/k8s-\(v[^/]*\)/bin|\1|')" \
    "in network namespace $ns (up in $((SECONDS - start)) s):"
  lab_summary "$node_ip" "./lab cluster exec"
  cat <<TEXT
kubectl:  ./lab cluster exec kubectl -n $lab_namespace get pods
Checks:   ./lab cluster check        Remove everything:  ./lab cluster down
TEXT
}

case ${1:-} in
  up) up ;;
  check) shift; require_tools; exec scripts/cluster/check.sh "$@" ;;
  down) require_tools; exec scripts/cluster/node.sh stop ;;
  exec)
    shift
    (( $# )) || { echo "usage: $0 exec COMMAND [ARG...]" >&2; exit 2; }
    in_ns env KUBECONFIG="$kubeconfig" "$@" ;;
  test)
    # ./lab test, CI=true: the cluster must run; elsewhere a machine without root or the packages skips it
    if [[ -n $(missing_tools) ]]; then
      [[ ${CI:-} == true ]] && { require_tools; }
      echo "lab: SKIPPED the real-cluster checks: missing $(missing_tools | paste -sd, - | sed 's/,/, /g'); install: $(install_hint)"
      exit 0
    fi
    # never take down a cluster this run did not start; a namespace without a process is no cluster (node.sh start
    # removes such a leftover and says so)
    if [[ $(scripts/cluster/node.sh status) == up ]]; then
      echo "lab: a cluster is up (network namespace $ns): ./lab cluster check tests it; ./lab cluster down, then ./lab test" >&2
      exit 1
    fi
    trap 'scripts/cluster/node.sh stop' EXIT
    up
    scripts/cluster/check.sh ;;
  -h|--help|help|"")
    sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
    [[ -n ${1:-} ]] || exit 2 ;;
  *) echo "unknown command '$1': up | check | down | exec CMD... | test (--help)" >&2; exit 2 ;;
esac
