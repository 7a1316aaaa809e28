#!/usr/bin/env bash
# Does the lab fit the node? The CPU and memory requests of a rendered deployment against a node's allocatable
# resources, beside the pods already on it. scripts/kind.sh up runs it after `kind create cluster` and before
# applying, so that a lab that cannot fit stops with the fix instead of leaving pods Pending (k8s/README.md).
#
#   scripts/k8s-fit.sh [--print] [--node NODE.json --pods PODS.json] [ENTRY...]
#
# ENTRY: a kustomize folder (rendered with kubectl kustomize) or a rendered .yaml/.json file; default
#   k8s/tests/with-load-test (= k8s/ plus the load Job). An object named by several entries counts once, as the
#   last entry renders it: `k8s/tests/with-load-test k8s/overlays/small` is the small overlay plus the load Job.
# --node: `kubectl get nodes -o json` (or one node); its .status.allocatable is what the scheduler hands out.
# --pods: `kubectl get pods -A -o json`; the pods on those nodes count, except finished ones and those in the
#   namespaces the entries deploy to (the apply replaces them).
# --print: the requests per workload and the totals (without --node, only that).
# Needed = the lab + one extra pod of its largest Deployment (a rolling update, e.g. `./lab kind up` on an existing
# cluster restarts every Deployment, starts the new pod before it stops the old one) + the pods already there.
# Exit 0: fits; 1: does not fit (the message says by how much and the fix); 2: usage.
# Needs kubectl (renders offline) and jq.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() { sed -n '6,7p' "$0" | sed 's/^# *//' >&2; exit 2; }
print=false node='' pods=''
entries=()
while (($#)); do
  case $1 in
    --print) print=true ;;
    --node) node=${2:?--node FILE}; shift ;;
    --pods) pods=${2:?--pods FILE}; shift ;;
    -h|--help) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
    -*) usage ;;
    *) entries+=("$1") ;;
  esac
  shift
done
((${#entries[@]})) || entries=(k8s/tests/with-load-test)
[[ -z $node && -z $pods ]] || [[ -n $node && -n $pods ]] || { echo "--node and --pods go together" >&2; exit 2; }
for tool in kubectl jq; do
  command -v "$tool" >/dev/null || { echo "k8s-fit: $tool is not installed" >&2; exit 2; }
done
small=k8s/overlays/small   # what the message offers when the lab does not fit

# render ENTRY...: every object the entries render, as one JSON array (the last entry wins per kind/namespace/name).
# kubectl has no offline YAML-to-JSON; `annotate --local` of an annotation nobody sets (removal of an absent key is a
# no-op) prints the objects unchanged as JSON without a server.
render() {
  local entry
  for entry in "$@"; do
    if [[ -d $entry ]]; then
      kubectl kustomize "$entry"
    elif [[ -f $entry ]]; then
      cat "$entry"
    else
      echo "k8s-fit: no such folder or file: $entry" >&2; return 2
    fi
    echo '---'
  done | KUBECONFIG=/dev/null kubectl annotate --local -f - -o json fanout-lab-k8s-fit- |
    jq -s '[.[] | if .kind == "List" then .items[] else . end]
           | reduce .[] as $o ({}; .["\($o.kind)/\($o.metadata.namespace // "")/\($o.metadata.name)"] = $o)
           | [.[]]'
}

# jq definitions: quantities to millicores and bytes, a pod spec's effective request (max of the containers' sum and
# each init container, as the scheduler counts it)
JQ_LIB='
def cpu: if . == null then 0 else tostring
  | if endswith("m") then .[:-1] | tonumber else tonumber * 1000 end end;
def mem: if . == null then 0 else tostring | capture("^(?<n>[0-9.eE+-]+)(?<u>[A-Za-z]*)$") as $q
  | ($q.n | tonumber) * ({"": 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, Ki: 1024, Mi: 1048576, Gi: 1073741824,
                          Ti: 1099511627776}[$q.u] // error("unknown memory unit \($q.u)")) end;
def podreq: [(.containers // [] | map(.resources.requests // {}) | {cpu: (map(.cpu | cpu) | add // 0),
                                                                    mem: (map(.memory | mem) | add // 0)}),
             (.initContainers // [] | .[] | .resources.requests // {} | {cpu: (.cpu | cpu), mem: (.memory | mem)})]
  | {cpu: (map(.cpu) | max), mem: (map(.mem) | max)};
def mib: . / 1048576 | ceil;
'

# workloads RENDERED-JSON: [{kind, name, namespace, replicas, cpu, mem}] per pod template
workloads() {
  jq "$JQ_LIB"'
    [.[] | select(.kind | IN("Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "Job", "Pod"))
     | (if .kind == "Pod" then .spec else .spec.template.spec end | podreq) as $r
     | (if .kind == "Job" then (.spec.parallelism // 1) elif .kind == "Pod" or .kind == "DaemonSet" then 1
        else (.spec.replicas // 1) end) as $n
     | {kind, name: .metadata.name, namespace: (.metadata.namespace // "default"), replicas: $n,
        cpu: ($r.cpu * $n), mem: ($r.mem * $n), podcpu: $r.cpu, podmem: $r.mem}]'
}

# totals ENTRY...: {lab: {cpu, mem}, surge: {cpu, mem}, namespaces: [...], workloads: [...]}
totals() {
  render "$@" | workloads | jq '{workloads: ., namespaces: (map(.namespace) | unique),
    lab: {cpu: (map(.cpu) | add // 0), mem: (map(.mem) | add // 0)},
    surge: (map(select(.kind == "Deployment")) | {cpu: (map(.podcpu) | max // 0), mem: (map(.podmem) | max // 0)})}'
}

# others TOTALS: the requests of the pods already on the node(s), outside the lab's namespaces
others() {
  jq -n --argjson t "$1" --slurpfile nodes "$node" --slurpfile pods "$pods" "$JQ_LIB"'
    ($nodes[0] | if .kind == "List" or .kind == "NodeList" then .items else [.] end | map(.metadata.name)) as $names
    | [$pods[0].items[] | select(.spec.nodeName as $n | $names | index($n))
       | select(.status.phase | IN("Succeeded", "Failed") | not)
       | select(.metadata.namespace as $ns | $t.namespaces | index($ns) | not)
       | .spec | podreq]
    | {count: length, cpu: (map(.cpu) | add // 0), mem: (map(.mem) | add // 0)}'
}

allocatable() {
  jq "$JQ_LIB"'if .kind == "List" or .kind == "NodeList" then .items else [.] end
    | {names: (map(.metadata.name) | join(", ")), cpu: (map(.status.allocatable.cpu | cpu) | add),
       mem: (map(.status.allocatable.memory | mem) | add), capcpu: (map(.status.capacity.cpu | cpu) | add),
       capmem: (map(.status.capacity.memory | mem) | add)}' "$node"
}

what=$(printf '%s + ' "${entries[@]}"); what=${what% + }
t=$(totals "${entries[@]}")
if $print; then
  echo "CPU and memory requests of $what (requests reserve, limits cap):"
  jq -r '.workloads[] | "  \(.kind) \(.name)\(if .replicas != 1 then " x\(.replicas)" else "" end)\t\(.cpu)m\t\(.mem / 1048576 | ceil)Mi"' <<<"$t" |
    column -t -s $'\t'
  jq -r '"  the lab: \(.lab.cpu)m CPU, \(.lab.mem / 1048576 | ceil)Mi (\(.lab.mem / 1073741824 * 100 | round / 100) GiB) memory"
    , "  a rolling update'"'"'s extra pod (the largest Deployment pod): \(.surge.cpu)m, \(.surge.mem / 1048576 | ceil)Mi"' <<<"$t"
fi
[[ -n $node ]] || exit 0

o=$(others "$t")
a=$(allocatable)
verdict() {   # verdict TOTALS: needed, allocatable, shortfall (negative: to spare)
  jq -n --argjson t "$1" --argjson o "$o" --argjson a "$a" '
    {cpu: ($t.lab.cpu + $t.surge.cpu + $o.cpu), mem: ($t.lab.mem + $t.surge.mem + $o.mem)} as $n
    | {need: $n, short: {cpu: ($n.cpu - $a.cpu), mem: ($n.mem - $a.mem)}}'
}
v=$(verdict "$t")
jq -r -n --argjson t "$t" --argjson o "$o" --argjson a "$a" --argjson v "$v" --arg what "$what" '
  def mi: . / 1048576 | ceil | tostring + "Mi";
  "node \($a.names): allocatable \($a.cpu)m CPU, \($a.mem | mi) memory",
  "  \($what): \($t.lab.cpu)m, \($t.lab.mem | mi); a rolling update'"'"'s extra pod: \($t.surge.cpu)m, \($t.surge.mem | mi)",
  "  \($o.count) pods already on the node (outside \($t.namespaces | join(", "))): \($o.cpu)m, \($o.mem | mi)",
  "  needed: \($v.need.cpu)m CPU, \($v.need.mem | mi) memory"'
if jq -e '.short.cpu <= 0 and .short.mem <= 0' <<<"$v" >/dev/null; then
  jq -r '"fits: \(-.short.cpu)m CPU and \(-.short.mem / 1048576 | floor)Mi memory to spare"' <<<"$v"
  exit 0
fi

# Does not fit: by how much, and the fix. Docker's CPUs and memory are the kind node's capacity; allocatable is
# that minus what the kubelet reserves (nothing for CPU on kind).
jq -r -n --argjson v "$v" --argjson a "$a" '
  def mi: . / 1048576 | ceil | tostring + "Mi";
  "DOES NOT FIT: "
  + ([if $v.short.cpu > 0 then "CPU short by \($v.short.cpu)m" else empty end,
      if $v.short.mem > 0 then "memory short by \($v.short.mem | mi)" else empty end] | join(", "))
  + ": pods would stay Pending.",
  "Fix: give Docker more (Docker Desktop: Settings > Resources), then ./lab kind down and up again:",
  if $v.short.cpu > 0 then "  at least \(($v.need.cpu + $a.capcpu - $a.cpu) / 1000 | ceil) CPUs (now \($a.capcpu / 1000))"
  else empty end,
  if $v.short.mem > 0 then "  at least \(($v.need.mem + $a.capmem - $a.mem) / 1073741824 | ceil) GiB of memory for the node"
    + " (now \($a.capmem / 1073741824 * 10 | floor / 10) GiB; set Docker a little higher: its VM keeps some)"
  else empty end' >&2
if [[ " ${entries[*]} " != *" $small "* && -d $small ]]; then
  vs=$(verdict "$(totals k8s/tests/with-load-test "$small")")
  if jq -e '.short.cpu <= 0 and .short.mem <= 0' <<<"$vs" >/dev/null; then
    jq -r '"  or the small overlay, which fits here (needs \(.need.cpu)m CPU, \(.need.mem / 1048576 | ceil)Mi): ./lab kind up --small   ('"$small"'/README.md: what it gives up)"' <<<"$vs" >&2
  else
    jq -r '"  (the small overlay, ./lab kind up --small, does not fit either: it needs \(.need.cpu)m CPU, \(.need.mem / 1048576 | ceil)Mi here)"' <<<"$vs" >&2
  fi
fi
exit 1
