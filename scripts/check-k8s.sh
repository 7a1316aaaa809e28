#!/usr/bin/env bash
# Checks 1 and 2 of k8s/ (k8s/README.md, "Checks"); the cross-references (check 3) and the images (check 4)
# are JUnit tests in container-tests, run by ./mvnw verify.
#   1. kubectl kustomize renders every entry point: each folder under k8s/ and grafana/ with a kustomization
#      that is not a Component (those render through k8s/tests/*).
#   2. kubeconform -strict validates each rendering against the Kubernetes 1.32 schemas: unknown or misspelt
#      fields, wrong types and missing required fields fail. And every pod template of a whole deployment (k8s/,
#      k8s/tests/*, k8s/overlays/*) must pass the Pod Security level its Namespace enforces, as the API server would judge it
#      (scripts/psa-check, with Kubernetes' own admission code).
# Renderings are kept in target/k8s/ for reading. Installs its tools on first use (scripts/install-k8s-tools.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

command -v kubectl >/dev/null || { echo "kubectl not found: install kubectl 1.32+ (https://kubernetes.io/docs/tasks/tools/)" >&2; exit 1; }
scripts/install-k8s-tools.sh >/dev/null
K8S_VERSION=1.32.4
cache=$PWD/k8s/.cache
out=target/k8s
rm -rf "$out" && mkdir -p "$out"

entries=()
while IFS= read -r file; do
  grep -q '^kind: Component' "$file" || entries+=("$(dirname "$file")")
done < <(find k8s grafana -name kustomization.yaml -not -path '*/.cache/*' | sort)

failed=0
for dir in "${entries[@]}"; do
  rendered=$out/$(tr / _ <<<"$dir").yaml
  if kubectl kustomize "$dir" >"$rendered" 2>"$rendered.err"; then
    echo "rendered  $dir ($(grep -c '^kind:' "$rendered") resources)"
  else
    echo "FAILED    kubectl kustomize $dir:" >&2; cat "$rendered.err" >&2; failed=1
  fi
  rm -f "$rendered.err"
done
(( failed == 0 )) || exit 1

"$cache/bin/kubeconform" -strict -summary -output text \
  -kubernetes-version "$K8S_VERSION" \
  -schema-location "$cache/schemas/{{ .NormalizedKubernetesVersion }}-standalone{{ .StrictSuffix }}/{{ .ResourceKind }}{{ .KindSuffix }}.json" \
  "$out"/*.yaml
deployments=("$out"/k8s.yaml "$out"/k8s_tests_*.yaml "$out"/k8s_overlays_*.yaml)
"$cache/bin/psa-check" "${deployments[@]}"
echo "check-k8s: ${#entries[@]} entry points render and are valid Kubernetes $K8S_VERSION (strict); pods admitted"
