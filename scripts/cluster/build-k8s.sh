#!/usr/bin/env bash
# Builds (or reuses) the Kubernetes node binaries for ./lab cluster from the k8s.io/kubernetes Go module, the
# version the schemas of scripts/install-k8s-tools.sh use: kube-apiserver, kube-controller-manager,
# kube-scheduler, kubelet, kube-proxy. The module in k8s-build/ requires k8s.io/kubernetes and replaces each staging
# module (k8s.io/api, ...) with its published version, pinned by k8s-build/go.sum.
# Output: $FANOUT_LAB_CACHE/k8s-<version>/bin (default ~/.cache/fanout-lab), outside the clone, so that a
# second run, or CI in a fresh clone on the same machine, starts in seconds. Cold: about 9 minutes on 2 cores.
# Usage: scripts/cluster/build-k8s.sh [--print-dir]   (--print-dir: only print the binaries' folder)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

version=$(awk '$1 == "require" && $2 == "k8s.io/kubernetes" {print $3}' "$here/k8s-build/go.mod")
bin=${FANOUT_LAB_CACHE:-$HOME/.cache/fanout-lab}/k8s-$version/bin
components=(kube-apiserver kube-controller-manager kube-scheduler kubelet kube-proxy)

if [[ ${1:-} == --print-dir ]]; then echo "$bin"; exit 0; fi
# one build at a time: a second call (./lab test while .ci/run's early build runs) waits, then finds the binaries
mkdir -p "$(dirname "$bin")"
exec 9>"$(dirname "$bin")/.build.lock"
flock -n 9 || { echo "waiting for the Kubernetes build already under way ..."; flock 9; }
missing=()
for c in "${components[@]}"; do [[ -x $bin/$c ]] || missing+=("$c"); done
if (( ${#missing[@]} == 0 )); then echo "Kubernetes $version binaries: $bin (cached)"; exit 0; fi

command -v go >/dev/null || { echo "go not found: install Go 1.23+ (apt-get install -y golang-1.23, or https://go.dev/dl/)" >&2; exit 1; }
echo "building Kubernetes $version: ${missing[*]} (about 9 minutes cold on 2 cores) ..."
start=$SECONDS
mkdir -p "$bin"
# gitVersion: `kubectl version` and the node's kubeletVersion report it; without it they say v0.0.0
ldflags="-s -w -X k8s.io/component-base/version.gitVersion=$version -X k8s.io/component-base/version.gitMajor=1"
ldflags+=" -X k8s.io/component-base/version.gitMinor=$(cut -d. -f2 <<<"$version")"
packages=()
for c in "${missing[@]}"; do packages+=("k8s.io/kubernetes/cmd/$c"); done
# k8s.io modules are not in the checksum database; k8s-build/go.sum pins them
(cd "$here/k8s-build" && GONOSUMDB=k8s.io GOFLAGS=-modcacherw CGO_ENABLED=0 \
  go build -trimpath -ldflags "$ldflags" -o "$bin/" "${packages[@]}")
echo "built Kubernetes $version in $((SECONDS - start)) s: $bin"
