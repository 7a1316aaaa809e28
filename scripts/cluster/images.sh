#!/usr/bin/env bash
# Builds from source the three images ./lab cluster needs besides the project's own, since none can be pulled here:
#   fanout-lab/pause:3.10          Kubernetes' pause.c (the pod sandbox of containerd.toml), gcc -static
#   fanout-lab/coredns:1.12.0      the DNS add-on of node.sh, Go, from the Go module proxy
#   fanout-lab/prometheus:v3.5.0   k8s/monitoring/prometheus.yaml, Go, module github.com/prometheus/prometheus v0.305.0
# Each image is FROM scratch with one static binary, laid out like upstream's (docker/cluster/<name>/Dockerfile).
# Prometheus has no web UI (its assets need npm): the HTTP API, /-/ready and /-/healthy work; /query answers 500.
# The binaries are kept in $FANOUT_LAB_CACHE/cluster-images/<name>-<version> (default ~/.cache/fanout-lab): a second
# run, or --force, takes seconds; delete that folder to compile again. Cold: about 7 minutes on 2 cores.
# Usage: scripts/cluster/images.sh [--force] [--list]
#   --force  build the images again even if they exist (from the cached binaries)
#   --list   print the image names and build nothing
# Needs: go 1.23+, gcc and libc6-dev (static libc), setcap (libcap2-bin), a Docker engine.
set -euo pipefail
cd "$(dirname "$0")/../.."

images=(fanout-lab/pause:3.10 fanout-lab/coredns:1.12.0 fanout-lab/prometheus:v3.5.0)
cache=${FANOUT_LAB_CACHE:-$HOME/.cache/fanout-lab}/cluster-images
export GOFLAGS=-modcacherw CGO_ENABLED=0 GONOSUMDB=k8s.io   # k8s.io modules are not in the checksum database

force=false list=false
for arg in "$@"; do
  case $arg in
    --force) force=true ;;
    --list) list=true ;;
    *) echo "unknown option $arg; usage: $0 [--force] [--list]" >&2; exit 2 ;;
  esac
done
if $list; then printf '%s\n' "${images[@]}"; exit 0; fi

go_fix="install Go 1.23+ (apt-get install -y golang-1.23, or https://go.dev/dl/)"
need() {   # need TOOL FIX
  command -v "$1" >/dev/null || { echo "$1 not found: $2" >&2; exit 1; }
}
need docker "scripts/docker-engine.sh start (installs Debian's Docker engine and starts it)"
docker version >/dev/null 2>&1 || { echo "no Docker engine answers: scripts/docker-engine.sh start" >&2; exit 1; }

module_dir() {   # module_dir PATH@VERSION: download the module, print its folder in the module cache
  local json
  need go "$go_fix"
  json=$(go mod download -json "$1") || { echo "$json" >&2; echo "go mod download $1 failed" >&2; exit 1; }
  sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p' <<<"$json"
}

build_pause() {   # OUT: upstream's flags (build/pause/Makefile), version as upstream's -v prints it, minus the git suffix
  local src
  need gcc "apt-get install -y gcc libc6-dev"
  src=$(module_dir k8s.io/kubernetes@v1.32.4)
  nice -n 10 gcc -Os -Wall -Werror -static -DVERSION=v3.10 -o "$1/pause" "$src/build/pause/linux/pause.c"
}

build_coredns() {   # OUT: GitCommit is the v1.12.0 tag's commit (the proxy's .info), upstream's Makefile flags
  need go "$go_fix"
  need setcap "apt-get install -y libcap2-bin"
  GOBIN=$1/bin nice -n 10 go install -trimpath \
    -ldflags "-s -w -X github.com/coredns/coredns/coremain.GitCommit=51e11f1" github.com/coredns/coredns@v1.12.0
  # as upstream: the image's user is not root, yet binds port 53 (the add-on grants NET_BIND_SERVICE). The file
  # capability reaches the image only in a tar for ADD: the legacy builder's COPY drops extended attributes.
  setcap cap_net_bind_service=+ep "$1/bin/coredns"
  tar --xattrs --xattrs-include=security.capability -C "$1/bin" -cf "$1/coredns.tar" coredns
  rm -r "$1/bin"
}

build_prometheus() {   # OUT: built inside the module (go install would refuse its replace directive)
  local src version revision=8be3a9560fbdd18a94dedec4b747c35178177202   # the v3.5.0 tag (the proxy has no VCS info)
  src=$(module_dir github.com/prometheus/prometheus@v0.305.0)
  version=$(cat "$src/VERSION")
  [[ $version == 3.5.0 ]] || { echo "prometheus module v0.305.0 says VERSION $version, not 3.5.0" >&2; exit 1; }
  local v=github.com/prometheus/common/version
  (cd "$src" && nice -n 10 go build -trimpath -tags netgo -o "$1/prometheus" \
    -ldflags "-s -w -X $v.Version=$version -X $v.Revision=$revision -X $v.Branch=HEAD" ./cmd/prometheus)
  cp "$src/documentation/examples/prometheus.yml" "$1/"
  mkdir "$1/data"   # becomes /prometheus, owned by nobody
}

# one build at a time: a second call (./lab test while .ci/run's early build runs) waits, then finds the images
mkdir -p "$cache"
exec 9>"$cache/.build.lock"
flock -n 9 || { echo "waiting for the cluster images' build already under way ..."; flock 9; }
for image in "${images[@]}"; do
  name=${image#*/} version=${image##*:}
  name=${name%:*}
  if ! $force && docker image inspect "$image" >/dev/null 2>&1; then
    echo "$image: exists (--force builds it again)"; continue
  fi
  start=$SECONDS dir=$cache/$name-$version
  if [[ ! -d $dir ]]; then   # compile into a temporary folder: an interrupted build leaves no half cache
    rm -rf "$dir.tmp" && mkdir -p "$dir.tmp"
    "build_$name" "$dir.tmp"
    mv "$dir.tmp" "$dir"
  fi
  # legacy builder: BuildKit would look up its frontend in a registry
  log=$(DOCKER_BUILDKIT=0 docker build -t "$image" -f "docker/cluster/$name/Dockerfile" "$dir" 2>&1) ||
    { echo "$log" >&2; echo "docker build of $image failed" >&2; exit 1; }
  echo "$image: built in $((SECONDS - start)) s, $(docker image ls --format '{{.Size}}' "$image")"
done
