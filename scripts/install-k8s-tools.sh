#!/usr/bin/env bash
# Installs what scripts/check-k8s.sh needs, pinned, into k8s/.cache/ (git-ignored); does nothing already done.
#   kubeconform v0.8.0        go install (Go module proxy)
#   Kubernetes 1.32 schemas   from api/openapi-spec/swagger.json of the Go module k8s.io/kubernetes@v1.32.4,
#                             its content hash pinned below, converted by scripts/k8s-schemas.py
#   psa-check                 scripts/psa-check (Go; k8s.io/pod-security-admission v0.32.4, pinned in its go.sum)
# Needs: go (1.22+), python3; kubectl 1.32+ for rendering (not installed here: see the message).
set -euo pipefail
cd "$(dirname "$0")/.."

KUBECONFORM_VERSION=v0.8.0
K8S_VERSION=1.32.4
# go.sum hash of k8s.io/kubernetes@v1.32.4. The checksum database has no entry for this module (GONOSUMDB below),
# so the pin is ours: a different zip fails here.
K8S_MODULE_SUM="h1:fRZeSjwVE+dMMSS7Qi6LxOOKpVL+1CPAT/b1Cuo4kns="

cache=k8s/.cache
bin=$cache/bin
schemas=$cache/schemas

need() { command -v "$1" >/dev/null || { echo "$1 not found: $2" >&2; exit 1; }; }
need go "install Go 1.22 or newer (https://go.dev/dl/), then run this again"
need python3 "install Python 3 (apt-get install -y python3)"
command -v kubectl >/dev/null || echo "note: kubectl not found; check-k8s.sh needs it (https://kubernetes.io/docs/tasks/tools/)" >&2

mkdir -p "$bin"
if [[ ! -x $bin/kubeconform ]]; then
  echo "go install kubeconform@$KUBECONFORM_VERSION ..."
  GOBIN=$PWD/$bin go install "github.com/yannh/kubeconform/cmd/kubeconform@$KUBECONFORM_VERSION"
fi

if [[ ! -f $schemas/v$K8S_VERSION-standalone-strict/deployment-apps-v1.json ]]; then
  echo "go mod download k8s.io/kubernetes@v$K8S_VERSION (schemas) ..."
  info=$(GONOSUMDB=k8s.io GOFLAGS=-modcacherw go mod download -json "k8s.io/kubernetes@v$K8S_VERSION")
  field() { python3 -c 'import json,sys; print(json.load(sys.stdin).get(sys.argv[1], ""))' "$1" <<<"$info"; }
  [[ -z $(field Error) ]] || { echo "go mod download failed: $(field Error)" >&2; exit 1; }
  [[ $(field Sum) == "$K8S_MODULE_SUM" ]] || { echo "k8s.io/kubernetes@v$K8S_VERSION hash $(field Sum) != pinned $K8S_MODULE_SUM" >&2; exit 1; }
  swagger=$(mktemp)
  trap 'rm -f "$swagger"' EXIT
  python3 - "$(field Zip)" "k8s.io/kubernetes@v$K8S_VERSION/api/openapi-spec/swagger.json" "$swagger" <<'PY'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z, open(sys.argv[3], "wb") as out:
    out.write(z.read(sys.argv[2]))
PY
  python3 scripts/k8s-schemas.py "$swagger" "$schemas" "$K8S_VERSION"
fi
if [[ ! -x $bin/psa-check || scripts/psa-check/main.go -nt $bin/psa-check ]]; then
  echo "go build scripts/psa-check ..."
  (cd scripts/psa-check && GOFLAGS=-modcacherw go build -o "../../$bin/psa-check" .)
fi
echo "kubeconform, psa-check and Kubernetes $K8S_VERSION schemas in $cache"
