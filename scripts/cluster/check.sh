#!/usr/bin/env bash
# ./lab cluster check: what a user of `kubectl apply -k k8s` would meet on a real cluster, checked on the
# single-node cluster of ./lab cluster up (k8s/README.md, "A real cluster on this machine"). A line per check;
# every check runs even after a failure; the exit status is the number of failed checks. Arguments: the numbers of
# the checks to run (default all; 3 before 4 before 5 gives check 5 recent load to see; 8 switches orders-service to
# PostgreSQL and back, 9 main-service-virtual to a lowered admission limit and back, 10 adds Zipkin and removes it).
#   1 server-side dry run of k8s/ against the real API server; the namespace's restricted Pod Security level
#     enforced by admission (a privileged pod is refused)
#   2 every Deployment Available within LAB_CLUSTER_ROLLOUT_SECONDS, no restart, the lab's containers run as
#     uid 10001 on a read-only root filesystem (read from the running pods)
#   3 through each main-service variant's Service: every strategy 200 with the body ./lab up gives; the variant's
#     request-thread kind; a 400 problem+json for a bad strategy; no actuator through the Service, whose port list
#     lacks the management port, which answers pod to pod only
#   4 a bounded hey against each variant (0 failed requests, beside the Little's-law bound); the load Job
#   5 Prometheus scrapes every pod; every dashboard query has data (system-tests ClusterDashboardsIT; the database
#     pool row only with orders-service on PostgreSQL, check 8); the panels
#     keep main-service's variants apart: each variant loaded alone in turn, its load shows where it belongs and
#     the idle ones read 0 (ClusterDashboardsIT#variantsStayApart, which also proves a merged query fails); Grafana's
#     pod spec, run with another image, finds its datasource and both dashboards where its provisioning says
#   6 ./lab bench --base-url against one variant writes its results folder
#   7 a killed downstream pod: 5xx problem+json within the deadline, then 200 once Kubernetes replaced it
#   8 once per database driver (LAB_CLUSTER_CHECK8_STORES, default "postgres r2dbc": JDBC, then R2DBC):
#     k8s/components/postgres applied (k8s/tests/cluster-postgres; for r2dbc with k8s/components/postgres-r2dbc,
#     k8s/tests/cluster-postgres-r2dbc): PostgreSQL's StatefulSet ready, its claim bound
#     to the node's local volume, its pod non-root (uid 999) on a read-only root filesystem; orders-service on that
#     store; every strategy through every variant answers the bytes it answered on the memory store just
#     before; Prometheus has the driver's pool series (HikariCP's or r2dbc-pool's, pool orders-db, its max =
#     ORDERS_DB_POOL_SIZE); after a short load of every strategy, every dashboard query has data, the database pool
#     row's lines of that driver included, the other driver's empty (empty-on-postgres-store.txt,
#     empty-on-r2dbc-store.txt; in check 5, on the memory store, the whole row must be empty:
#     empty-on-memory-store.txt); then the memory store again (k8s/tests/cluster), the PostgreSQL objects deleted, the claim and its data kept
#   9 admission control: each variant's ceiling is the one its heap implies, its limit the default (200, below that
#     ceiling), and that heap 70 % of the pod's memory limit; k8s/tests/cluster-burst lowers main-service-virtual's
#     limit and its load Job bursts that variant alone past
#     it: only 200s and 429s, every 429 an admission refusal (Prometheus), in flight at the limit, no restart, the
#     other variants without a request or a refusal; then k8s/tests/cluster again
#  10 k8s/components/zipkin applied (k8s/tests/cluster-zipkin): Zipkin ready; a request per strategy through
#     main-service-virtual with a traceparent of its own (sampled) comes back from Zipkin's API as its trace of 7
#     spans (main-service's server span, its 3 calls, the 3 downstreams' server spans: system-tests ZipkinTracesIT);
#     Prometheus holds exemplars on http_server_requests_seconds_bucket whose trace_id is one of those traces, which
#     Zipkin knows (Grafana's link from a latency panel's dot); then k8s/tests/cluster again, Zipkin's objects deleted
# Load goes only to addresses inside the cluster's network namespace, bounded in time and count.
set -uo pipefail
cd "$(dirname "$0")/../.."

eval "$(scripts/cluster/node.sh env)"   # ns state node node_ip kubeconfig
in_ns() { nsenter --net="/run/netns/$ns" "$@"; }
KUBECTL=(in_ns kubectl --kubeconfig "$kubeconfig")
source scripts/k8s-deploy.sh           # lab_kc, lab_namespace
kc() { lab_kc "$@"; }

work=$(mktemp -d)
pf_pid=
trap '[[ -n $pf_pid ]] && kill "$pf_pid" 2>/dev/null; rm -rf "$work"' EXIT
failed=0
orders=/backoffice/api/v1/backoffice/orders
variants=(main-service-platform main-service-virtual main-service-netty)
# want_thread VARIANT STRATEGY: the X-Fanout-Request-Thread the variant answers with: its profile on Tomcat; on Reactor
# Netty virtual (WebFlux hands a blocking fan-out to a virtual thread), but platform for reactive, which stays on the
# event loop (docs/strategies.md, "On Reactor Netty")
want_thread() {
  local profile=${1#main-service-}
  if [[ $profile != netty ]]; then echo "$profile"; elif [[ $2 == reactive ]]; then echo platform; else echo virtual; fi
}
knob() { sed -n "s/^$1=//p" k8s/base/"$2"; }   # knob NAME FILE: a value of k8s/base/*.env
latency_ms=$(knob DOWNSTREAM_LATENCY downstream.env | tr -dc 0-9)
deadline_s=$(knob FANOUT_DEADLINE main-service.env | tr -dc 0-9)

pass() { printf 'ok    %s\n' "$*"; }
fail() { printf 'FAIL  %s\n' "$*"; failed=$((failed + 1)); }
detail() { printf '        %s\n' "$@"; }
service_url() { echo "http://$(kc get service "$1" -o jsonpath='{.spec.clusterIP}'):$(kc get service "$1" -o jsonpath='{.spec.ports[0].port}')"; }
# management_url APP: the actuator of APP's pod (its container port "management"), which no Service exposes
management_url() {
  echo "http://$(kc get pods -l "app=$1" -o jsonpath='{.items[0].status.podIP}'):$(kc get pods -l "app=$1" \
    -o jsonpath='{.items[0].spec.containers[0].ports[?(@.name=="management")].containerPort}')"
}
strategies() {   # the strategies main-service accepts, from its 400 problem for an unknown one
  in_ns curl -s "$(service_url main-service-virtual)$orders?concurrency=none" \
    | jq -r '.detail' | sed -n 's/.*is not one of \[\(.*\)\].*/\1/p' | tr -d ' ' | tr , '\n'
}

check1() {
  local out
  if out=$("${KUBECTL[@]}" apply -k k8s --dry-run=server --warnings-as-errors 2>&1); then
    pass "1 kubectl apply --dry-run=server -k k8s: $(grep -c 'created\|configured\|unchanged' <<<"$out") objects accepted, no warning"
  else
    fail "1 kubectl apply --dry-run=server -k k8s"; detail "$out"
  fi
  # a control that can fail: admission must refuse a pod below the restricted level in the lab's namespace
  # (a pod with no security context: allowed at the "baseline" level, refused at "restricted")
  out=$(kc run psa-probe --image=fanout-lab/hey:0.1.4 --restart=Never --dry-run=server 2>&1)
  if grep -q 'violates PodSecurity "restricted' <<<"$out"; then
    pass "1 Pod Security admission enforces restricted in $lab_namespace: a pod without a security context is refused"
  else
    fail "1 a pod without a security context was not refused by Pod Security admission"; detail "$out"
  fi
}

check2() {
  local limit=${LAB_CLUSTER_ROLLOUT_SECONDS:-300} d name took restarts
  for d in $(kc get deployments -o name); do
    name=${d#*/}
    if ! kc wait --for=condition=Available "$d" --timeout="${limit}s" >/dev/null 2>&1; then
      fail "2 deployment $name not Available within $limit s"; continue
    fi
    # from the Deployment's creation to its Available condition (the last rollout of a re-applied one)
    took=$(kc get "$d" -o json | jq -r '(.status.conditions[] | select(.type == "Available") | .lastTransitionTime
      | fromdateiso8601) - (.metadata.creationTimestamp | fromdateiso8601)')
    pass "2 deployment $name Available ${took} s after creation (limit $limit s)"
  done
  restarts=$(kc get pods -o json | jq -r '.items[] | .metadata.name as $p | .status.containerStatuses[]?
    | select(.restartCount > 0) | "\($p)/\(.name): \(.restartCount) restarts"')
  if [[ -z $restarts ]]; then pass "2 no container restarted"; else fail "2 containers restarted"; detail "$restarts"; fi
  local pod uid root
  for pod in $(kc get pods -l "$lab_services" -o name); do
    # read from the running process and its mount table, not from the manifest; kubectl's own stderr (such as
    # its websocket client's "Unknown stream id" log) is kept out of the answer and shown only on failure
    uid=$(kc exec "$pod" -- sh -c 'awk "/^Uid:/ {print \$2}" /proc/1/status' 2>"$work/exec.err")
    root=$(kc exec "$pod" -- sh -c 'awk "\$2 == \"/\" {split(\$4, o, \",\"); print o[1]}" /proc/1/mounts; touch /probe 2>&1 | sed "s/.*: //"' 2>>"$work/exec.err" | paste -sd' ')
    if [[ $uid == 10001 && $root == "ro Read-only file system" ]]; then
      pass "2 ${pod#*/}: runs as uid $uid, root filesystem read-only (a write fails: ${root#ro })"
    else
      fail "2 ${pod#*/}: uid '$uid', root filesystem '$root' (want 10001, ro)"; detail "$(cat "$work/exec.err")"
    fi
  done
}

# the body ./lab up gives for each strategy, on loopback, before anything else: the reference for check 3
# (a ./lab up that already runs is used and left running: the body does not depend on its knobs)
local_bodies() {
  local started=false
  if ! curl -sf -o /dev/null http://localhost:9222/actuator/health/readiness; then   # main-service's management port
    if ! ./lab up >"$work/lab-up.log" 2>&1; then
      echo "./lab up failed: $(tail -3 "$work/lab-up.log")"; ./lab down >/dev/null 2>&1; return 1
    fi
    started=true
  fi
  local s
  for s in $(curl -s "http://localhost:2222$orders?concurrency=none" | jq -r .detail | sed -n 's/.*\[\(.*\)\].*/\1/p' | tr -d ' ' | tr , ' '); do
    curl -s "http://localhost:2222$orders?concurrency=$s" | sha256sum | cut -c1-16 >"$work/local-$s"
  done
  if $started; then ./lab down >/dev/null 2>&1; fi
}

check3() {
  local reference=true note=" = ./lab up's" variant url s code thread sum problem
  local_bodies >"$work/local.err" || { fail "3 no reference body: $(cat "$work/local.err")"; reference=false; note=; }
  for variant in "${variants[@]}"; do
    url=$(service_url "$variant")
    for s in $(strategies); do
      read -r code thread < <(in_ns curl -s -o "$work/body" -D "$work/headers" -w '%{http_code} ' "$url$orders?concurrency=$s";
        tr -d '\r' <"$work/headers" | sed -n 's/^[Xx]-[Ff]anout-[Rr]equest-[Tt]hread: //p')
      sum=$(sha256sum <"$work/body" | cut -c1-16)
      if [[ $code != 200 ]]; then
        fail "3 $variant $s: HTTP $code"; detail "$(head -c 300 "$work/body")"
      elif [[ $thread != "$(want_thread "$variant" "$s")" ]]; then
        fail "3 $variant $s: X-Fanout-Request-Thread '$thread', want $(want_thread "$variant" "$s")"
      elif $reference && [[ $sum != "$(cat "$work/local-$s" 2>/dev/null)" ]]; then
        fail "3 $variant $s: body $sum differs from ./lab up's $(cat "$work/local-$s" 2>/dev/null)"
      else
        pass "3 $variant $s: 200, request thread $thread, body sha256 $sum$note"
      fi
    done
    problem=$(in_ns curl -s -w ' %{http_code} %{content_type}' "$url$orders?concurrency=fast")
    if [[ $problem == *' 400 application/problem+json' && $problem == *'"type":"https://fanout-lab.dev/problems/bad-parameter"'* ]]; then
      pass "3 $variant ?concurrency=fast: 400 application/problem+json, type bad-parameter"
    else
      fail "3 $variant ?concurrency=fast: $problem"
    fi
    check3_management "$variant" "$url"
  done
}

# The actuator is not for callers: 404 through the Service, whose ports lack the management port (so does any
# NodePort), while the pod itself answers there (Prometheus' way in).
check3_management() {
  local variant=$1 url=$2 management ports public pod
  management=$(management_url "$variant")
  # the pod ports the Service reaches, resolved by Kubernetes from its targetPort names
  ports=$(kc get endpointslices -l "kubernetes.io/service-name=$variant" -o jsonpath='{.items[*].ports[*].port}')
  public=$(for p in /actuator/info /actuator/prometheus; do in_ns curl -s -o /dev/null -w '%{http_code} ' "$url$p"; done)
  pod=$(in_ns curl -s -o /dev/null -w '%{http_code}' "$management/actuator/info")
  if [[ $public == '404 404 ' && $pod == 200 && -n $ports && -n ${management##*:} && " $ports " != *" ${management##*:} "* ]]; then
    pass "3 $variant: /actuator/info and /prometheus 404 through the Service (it reaches pod ports: $ports); 200 at the pod's management port ${management##*:}"
  else
    fail "3 $variant actuator: through the Service '$public', at $management '$pod', Service reaches pod ports '$ports'"
  fi
}

# bound_req_s CONCURRENCY: Little's law, L = lambda W (docs/benchmarks.md, "The bound: Little's law"), for a parallel strategy:
# L = min(clients, pool / 3 calls), W = one downstream latency; the virtual variant has no request-thread limit
bound_req_s() {
  local pool
  pool=$(knob FANOUT_POOL_MAX_TOTAL main-service.env)
  echo $(( ($1 < pool / 3 ? $1 : pool / 3) * 1000 / latency_ms ))
}

check4() {
  local variant url out rps p50 p99 total codes c=50 seconds=20 bound
  bound=$(bound_req_s $c)
  # the Job first: hey's load then ends last, inside the dashboards' 1-minute rate windows of check 5
  kc delete job hey-load --ignore-not-found >/dev/null
  "${KUBECTL[@]}" apply -k k8s/tests/cluster-load >/dev/null
  if kc wait --for=condition=Complete job/hey-load --timeout=300s >/dev/null 2>&1; then
    kc logs job/hey-load >"$work/job.log" 2>&1
    pass "4 the load Job of k8s/components/load-test completed: $(grep -c '^===' "$work/job.log") hey runs, $(grep -c '\[200\]' "$work/job.log") with 200s"
    grep -E '^===|Requests/sec' "$work/job.log" | paste - - | awk '{print $2, $3, $(NF)" req/s"}' | sed 's/^/        /'
  else
    fail "4 the load Job did not complete within 300 s"; detail "$(kc get job hey-load -o wide 2>&1)" "$(kc logs job/hey-load --tail=5 2>&1)"
  fi
  for variant in "${variants[@]}"; do
    url=$(service_url "$variant")
    out=$(in_ns timeout $((seconds + 30)) hey -z "${seconds}s" -c "$c" "$url$orders?concurrency=scopeFork" 2>&1)
    rps=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
    p50=$(awk '/ 50% in/ {print $3 * 1000}' <<<"$out")
    p99=$(awk '/ 99% in/ {print $3 * 1000}' <<<"$out")
    codes=$(sed -n '/Status code distribution/,/^$/p' <<<"$out" | awk '/\[/ {print $1 $2}' | paste -sd' ')
    if [[ $codes =~ ^\[200\][0-9]+$ ]] && ! grep -q 'Error distribution' <<<"$out"; then
      pass "4 $variant hey -z ${seconds}s -c $c scopeFork: ${codes#\[200\]} x 200, 0 failed; $rps req/s (bound $bound = $c / ${latency_ms} ms), p50 $p50 ms, p99 $p99 ms"
    else
      fail "4 $variant hey: status codes '$codes'"; detail "$(sed -n '/Status code distribution/,$p' <<<"$out" | head -12)"
    fi
  done
}

# prometheus_port_forward PORT: the in-cluster Prometheus on 127.0.0.1:PORT of the node's network namespace, once
# ready (its pid in pf_pid, which the EXIT trap kills)
prometheus_port_forward() {
  in_ns kubectl --kubeconfig "$kubeconfig" -n "$lab_namespace" port-forward --address 127.0.0.1 service/prometheus "$1:9090" \
    >"$work/port-forward-$1.log" 2>&1 &
  pf_pid=$!
  for _ in $(seq 1 30); do in_ns curl -sf "http://127.0.0.1:$1/-/ready" >/dev/null && break; sleep 1; done
}
# scraped_apps: the label app of every pod Prometheus is told to scrape, comma-separated
scraped_apps() {
  kc get pods -o json | jq -r '[.items[] | select(.metadata.annotations["prometheus.io/scrape"] == "true") | .metadata.labels.app] | unique | join(",")'
}

# dashboards_have_data CHECK PORT APPS: the same checker as the local end-to-end test (DashboardsEndToEndIT), pointed
# at the in-cluster Prometheus on PORT, told the store orders-service reports: on memory the database pool row must be
# empty, on postgres its JDBC lines and on r2dbc its R2DBC lines must have data like the rest, the other driver's be
# empty (test-compile, then failsafe alone: nothing packaged, no unit test; -am finds the other modules' classes)
# Rates over 3 min, not Grafana's 1: the loads before (checks 4 and 8) go variant after variant, and with three
# variants the first one's load had ended more than a minute before the queries ran (Little's law's request-thread
# bound, the platform variant's alone, had no value); presence of data is the question here, not a rate's value.
dashboard_rate_s=180
# pool_row_note STORE: what the database pool row must show on that store
pool_row_note() {
  case $1 in
    memory) echo "the database pool row empty, as it must be" ;;
    postgres) echo "the database pool row's JDBC lines have data, its R2DBC lines are empty" ;;
    r2dbc) echo "the database pool row's R2DBC lines have data, its JDBC lines are empty" ;;
    *) echo "store unknown to ClusterDashboardsIT" ;;
  esac
}
dashboards_have_data() {
  local check=$1 port=$2 apps=$3 store
  store=$(orders_info | jq -r '.knobs.orders.store')
  if in_ns ./mvnw -B -o -q -pl system-tests -am test-compile failsafe:integration-test failsafe:verify \
      -Dit.test=ClusterDashboardsIT -Dfailsafe.failIfNoSpecifiedTests=false \
      -Dfanout.cluster.prometheus="http://127.0.0.1:$port" -Dfanout.cluster.applications="$apps" \
      -Dfanout.cluster.rate-interval="${dashboard_rate_s}s" -Dfanout.cluster.orders-store="$store" >"$work/it$check.log" 2>&1; then
    pass "$check every query of every dashboard in grafana/dashboards/ has data in the in-cluster Prometheus (orders-service on the $store store: $(pool_row_note "$store"))"
  else
    fail "$check dashboard queries without data (system-tests ClusterDashboardsIT, orders-service on the '$store' store)"
    detail "$(grep -E 'EMPTY|NO LABEL|ALL NaN|HAS DATA|allowlist|expected|ERROR' "$work/it$check.log" | head -20)"
  fi
}

check5() {
  local port=19090 apps up
  prometheus_port_forward "$port"
  sleep 12   # two scrape intervals (5 s): the last scrape holds the load of checks 3 and 4
  apps=$(scraped_apps)
  up=$(in_ns curl -s "http://127.0.0.1:$port/api/v1/query" --data-urlencode 'query=up{job="fanout-lab-pods"} == 1' | jq -r '[.data.result[].metric.app] | unique | join(",")')
  if [[ -n $apps && $up == "$apps" ]]; then
    pass "5 Prometheus (through kubectl port-forward) scrapes every annotated pod: up == 1 for $up"
  else
    fail "5 Prometheus targets up: '$up', annotated pods: '$apps'"
  fi
  # cAdvisor through the API server's node proxy (the pods row): the target is up and holds the lab's pods
  up=$(in_ns curl -s "http://127.0.0.1:$port/api/v1/query" --data-urlencode \
    'query=count by (node) (up{job="kubelet-cadvisor"} == 1) * on (node) group_left count by (node) (container_memory_working_set_bytes{namespace="fanout-lab"})' \
    | jq -r '.data.result[] | "\(.metric.node): \(.value[1]) pods"')
  if [[ -n $up ]]; then
    pass "5 Prometheus scrapes cAdvisor through the API server (job kubelet-cadvisor): $up"
  else
    fail "5 no kubelet-cadvisor target up with the lab's pods"; detail "$(in_ns curl -s "http://127.0.0.1:$port/api/v1/targets" | jq -c '.data.activeTargets[] | select(.labels.job == "kubelet-cadvisor") | {health, lastError}')"
  fi
  dashboards_have_data 5 "$port" "$apps"
  check5_variants "$port" "$apps"
  kill "$pf_pid" 2>/dev/null; pf_pid=
  check5_grafana
}

# One variant loaded, the others idle, each in turn: the dashboards must show each load where it belongs
# (system-tests VariantSeparationCheck). The idle variant must have had no request for longer than the rate interval
# before the moment the queries are evaluated, hence the pause before each load. Each load: every strategy at once
# (so that both pools and every executor work), $clients clients each, bounded by hey -z.
check5_variants() {
  local port=$1 apps=$2 rate=30s idle_s=40 load_s=25 clients=4 loaded url s at pids all
  all=$(strategies)   # before the pauses: the 400 that lists them is a request too, which an idle variant must not see
  for loaded in "${variants[@]}"; do
    sleep "$idle_s"
    url=$(service_url "$loaded")
    pids=()
    for s in $all; do
      in_ns timeout $((load_s + 30)) hey -z "${load_s}s" -c "$clients" "$url$orders?concurrency=$s" >"$work/variant-$s.log" 2>&1 &
      pids+=($!)
    done
    sleep $((load_s - 3))
    at=$(date +%s)   # within the load: the gauges' last scrape (every 5 s) holds it, and the rates' window too
    wait "${pids[@]}"
    if in_ns ./mvnw -B -o -q -pl system-tests -am test-compile failsafe:integration-test failsafe:verify \
        -Dit.test='ClusterDashboardsIT#variantsStayApart' -Dfailsafe.failIfNoSpecifiedTests=false \
        -Dfanout.cluster.prometheus="http://127.0.0.1:$port" -Dfanout.cluster.applications="$apps" \
        -Dfanout.cluster.rate-interval=$rate -Dfanout.cluster.loaded="$loaded" -Dfanout.cluster.time="$at" \
        >"$work/variants.log" 2>&1; then
      pass "5 $loaded loaded alone ($(wc -w <<<"$all") strategies x $clients clients, ${load_s} s): every panel shows its load where it belongs, $(printf '%s\n' "${variants[@]}" | grep -vx "$loaded" | paste -sd' ') read 0"
      # what the panels read (load and idle-zero queries, with "All"), then the merged query's failure
      sed -n '/what the panels read/,/^variantsStayApart: the same/p' "$work/variants.log" | sed 's/^/        /'
      grep -A2 'one by (application) removed' "$work/variants.log" | tail -n +2 | sed 's/^/        /'
    else
      fail "5 $loaded loaded alone: panels that do not keep the variants apart (ClusterDashboardsIT#variantsStayApart)"
      detail "$(grep -E '^\s*"fanout-|\[\$application=|expected|ERROR' "$work/variants.log" | head -40)"
    fi
  done
}

# Grafana's image cannot exist here, so a pod with Grafana's own pod spec, as the real k8s/ renders it (volumes,
# mounts, security context), and only the container's image and command swapped reads the provisioning files where
# Grafana would (scripts/cluster/grafana-provisioning.sh). Judged here: the datasource answers from inside the
# cluster with the uid the dashboards select, and the provider's folder holds exactly grafana/dashboards/*.json.
check5_grafana() {
  local pod=grafana-provisioning-check out expected_uid found want
  "${KUBECTL[@]}" apply --dry-run=server -k k8s -o json \
    | jq --arg script "$(cat scripts/cluster/grafana-provisioning.sh)" --arg name "$pod" '
        .items[] | select(.kind == "Deployment" and .metadata.name == "grafana") | .spec.template.spec
        | {apiVersion: "v1", kind: "Pod", metadata: {name: $name}, spec: (. + {restartPolicy: "Never",
            containers: [.containers[0] | del(.readinessProbe, .livenessProbe, .startupProbe, .ports, .env)
              + {name: "check", image: "debian:bookworm-slim", imagePullPolicy: "Never", command: ["bash", "-c", $script]}]})}' \
    >"$work/grafana-pod.json"
  kc delete pod "$pod" --ignore-not-found >/dev/null
  kc apply -f "$work/grafana-pod.json" >/dev/null
  kc wait --for=jsonpath='{.status.phase}'=Succeeded "pod/$pod" --timeout=90s >/dev/null 2>&1
  out=$(kc logs "$pod" 2>&1)
  kc delete pod "$pod" --ignore-not-found --wait=false >/dev/null
  expected_uid=$(jq -r '.templating.list[] | select(.type == "datasource") | .current.value' grafana/dashboards/*.json | sort -u)
  if grep -q "^DATASOURCE .* uid=$expected_uid " <<<"$out" && grep -q '^QUERY .* 200 OK "status":"success"' <<<"$out"; then
    pass "5 Grafana's pod spec finds datasource uid $expected_uid (the dashboards' default), and its URL answers from a pod: $(grep -o '^QUERY [^ ]*' <<<"$out" | cut -d' ' -f2)"
  else
    fail "5 Grafana's datasource as its pod spec mounts it (want uid $expected_uid, answering)"; detail "$out"
  fi
  found=$(awk '$1 == "DASHBOARD" {print $2, $3}' <<<"$out" | sort)
  want=$(cd grafana/dashboards && for f in *.json; do echo "$f $(sha256sum <"$f" | cut -c1-64)"; done | sort)
  if [[ -n $want && $found == "$want" ]]; then
    pass "5 Grafana's pod spec finds every dashboard at its provider's path ($(grep -o 'path=[^ ]*' <<<"$out" | head -1)): $(awk '{print $1}' <<<"$found" | paste -sd' ')"
  else
    fail "5 dashboards at the provider's path differ from grafana/dashboards/"; detail "found:" "$found" "want:" "$want" "$out"
  fi
}

check6() {
  local out=$work/bench url management
  url=$(service_url main-service-virtual)
  management=$(management_url main-service-virtual)   # knobs, readiness and scrapes: the pod's actuator
  cat >"$work/one-cell.yaml" <<YAML
# one cell: scopeFork at 50 clients on the deployment's own knobs (profile, threads and pool are read from it)
blocks:
  - name: cluster
    strategies: [scopeFork]
    profiles: [virtual]
    tomcatThreads: [200]
    poolSizes: [500]
    concurrencies: [50]
    latenciesMs: [$latency_ms]
    durationSeconds: 4
    warmupSeconds: 3
    repetitions: 3
    timeoutSeconds: 20
YAML
  if in_ns ./lab bench --base-url "$url" --management-url "$management" --matrix "$work/one-cell.yaml" --out "$out" >"$work/bench.log" 2>&1 \
      && [[ -s $out/results.csv && -s $out/results.md && -s $out/environment.txt ]]; then
    pass "6 ./lab bench --base-url $url (one cell) wrote $(ls "$out" | paste -sd' ' | sed 's/ /, /g')"
    grep -E '^\[1/1\].*req/s' "$work/bench.log" | sed 's/^/        /'
  else
    fail "6 ./lab bench --base-url $url"; detail "$(tail -15 "$work/bench.log")"
  fi
}

check7() {
  local url old t0 now code type took seen_5xx=0 bad=0 recovered=false line
  url=$(service_url main-service-virtual)$orders?concurrency=scopeFork
  old=$(kc get pods -l app=orders-service -o jsonpath='{.items[0].metadata.name}')
  kc delete pod "$old" --grace-period=0 --force >/dev/null 2>&1
  t0=$SECONDS
  while (( SECONDS - t0 < 300 )); do   # bounded: at most 300 s, one request at a time
    line=$(in_ns curl -s -o "$work/body7" -w '%{http_code} %{content_type} %{time_total}' --max-time $((deadline_s + 5)) "$url")
    read -r code type took <<<"$line"
    # 200s before the first failure: the old container still answered until kube-proxy removed its endpoint
    if [[ $code == 200 ]]; then ((seen_5xx + bad)) && { recovered=true; break; }; sleep 0.2; continue; fi
    if [[ $code =~ ^50[234]$ && $type == application/problem+json* ]] && awk -v t="$took" -v d="$deadline_s" 'BEGIN {exit !(t <= d + 1)}'; then
      seen_5xx=$((seen_5xx + 1))
      [[ $seen_5xx == 1 ]] && detail "first answer while orders-service is down: $code $(jq -r '.type + " " + .detail' "$work/body7" 2>/dev/null | cut -c1-140) in ${took} s"
    else
      bad=$((bad + 1)); detail "unexpected while down: $line $(head -c 200 "$work/body7")"
    fi
    sleep 0.5
  done
  now=$(kc get pods -l app=orders-service -o jsonpath='{.items[0].metadata.name}')
  if $recovered && (( seen_5xx > 0 && bad == 0 )) && [[ $now != "$old" ]]; then
    pass "7 orders-service pod $old killed: $seen_5xx answers 502/503/504 problem+json within the ${deadline_s} s deadline, 200 again after $((SECONDS - t0)) s from the new pod $now"
  else
    fail "7 killed downstream: recovered=$recovered, 5xx problem answers $seen_5xx, unexpected $bad, pod $old -> $now"
  fi
}

# bodies FILE-PREFIX: the sha256 of every strategy's body through every variant, one file per variant and strategy;
# prints "code variant strategy" for any answer other than 200
bodies() {
  local variant url s code
  for variant in "${variants[@]}"; do
    url=$(service_url "$variant")
    for s in $(strategies); do
      code=$(in_ns curl -s -o "$work/body8" -w '%{http_code}' --max-time 30 "$url$orders?concurrency=$s")
      [[ $code == 200 ]] || echo "$code $variant $s"
      sha256sum <"$work/body8" | cut -c1-16 >"$1-$variant-$s"
    done
  done
}

# actuator_info APP: /actuator/info of APP's ready pod (not one a rollout is still deleting), from its management port
actuator_info() {
  local address info
  for _ in $(seq 1 30); do
    address=$(kc get pods -l "app=$1" -o json | jq -r '[.items[] | select(.metadata.deletionTimestamp == null
      and any(.status.conditions[]?; .type == "Ready" and .status == "True"))][0]
      | "\(.status.podIP):\(.spec.containers[0].ports[] | select(.name == "management") | .containerPort)" // empty')
    if [[ -n $address ]]; then
      info=$(in_ns curl -s --max-time 5 "http://$address/actuator/info")
      [[ -n $(jq -r '.knobs // empty' <<<"$info" 2>/dev/null) ]] && { echo "$info"; return; }
    fi
    sleep 1
  done
}
orders_info() { actuator_info orders-service; }

# prometheus_value QUERY [TIME]: the first result's value (at TIME, Unix seconds; default now), through the
# port-forward of checks 8 and 9; empty when the result is
prometheus_value() {
  in_ns curl -s "http://127.0.0.1:19091/api/v1/query" --data-urlencode "query=$1" ${2:+--data-urlencode "time=$2"} \
    | jq -r '.data.result[0].value[1] // empty'
}

# check 8's pool series per driver, as the dashboards query them: "size in-use acquisitions", and the pool's name
pool_series() {
  case $1 in
    postgres) echo "hikaricp_connections_max hikaricp_connections_active hikaricp_connections_acquire_seconds_count HikariCP" ;;
    r2dbc) echo "r2dbc_pool_max_allocated_connections r2dbc_pool_acquired_connections r2dbc_pool_acquire_seconds_count r2dbc-pool" ;;
  esac
}

check8() {
  local out pool store stores=${LAB_CLUSTER_CHECK8_STORES:-postgres r2dbc}
  pool=$(sed -n 's/^ORDERS_DB_POOL_SIZE=//p' k8s/components/postgres/orders-db.env)
  # the reference: the memory store's answers, through the same Services, just before the switch
  out=$(bodies "$work/memory")
  [[ -z $out ]] || { fail "8 memory store, before the switch: not 200: $out"; return; }
  check8_loaded=   # when the previous driver's load ended (SECONDS), if any
  for store in $stores; do
    if [[ -z $(pool_series "$store") ]]; then
      fail "8 LAB_CLUSTER_CHECK8_STORES: '$store' is not a database store (postgres or r2dbc)"; continue
    fi
    check8_store "$store" "$pool" || break
  done
  check8_restore
}

# check8_store STORE POOL: orders-service on PostgreSQL through STORE's driver, checked; status 1 when it did not
# roll out (the rest of check 8 then only restores)
check8_store() {
  local store=$1 pool=$2 test=k8s/tests/cluster-postgres out pvc pv class uid root info server max driver variant s \
    differ=0 same=0 restarts
  [[ $store == r2dbc ]] && test=k8s/tests/cluster-postgres-r2dbc
  if ! out=$("${KUBECTL[@]}" apply -k "$test" 2>&1); then
    fail "8 kubectl apply -k $test"; detail "$out"; return 1
  fi
  if ! kc rollout status statefulset/postgres --timeout=180s >/dev/null 2>&1 \
      || ! kc rollout status deployment/orders-service --timeout=300s >/dev/null 2>&1; then
    fail "8 PostgreSQL or orders-service not rolled out ($test)"
    detail "$(kc get pods,pvc -o wide 2>&1)" "$(kc logs statefulset/postgres --tail=10 2>&1)"
    return 1
  fi
  pvc=$(kc get pvc data-postgres-0 -o jsonpath='{.status.phase} {.spec.volumeName} {.spec.storageClassName}')
  read -r _ pv class <<<"$pvc"
  uid=$(kc exec postgres-0 -- sh -c 'awk "/^Uid:/ {print \$2}" /proc/1/status' 2>/dev/null)
  root=$(kc exec postgres-0 -- sh -c 'awk "\$2 == \"/\" {split(\$4, o, \",\"); print o[1]}" /proc/1/mounts' 2>/dev/null)
  if [[ $pvc == Bound* && $uid == 999 && $root == ro ]]; then
    pass "8 $store: PostgreSQL ready ($(kc exec postgres-0 -- postgres --version 2>/dev/null)): claim data-postgres-0 Bound to $pv (class $class), uid $uid, root filesystem read-only"
  else
    fail "8 $store: PostgreSQL: claim '$pvc', uid '$uid', root filesystem '$root' (want Bound, 999, ro)"
  fi
  info=$(orders_info)
  read -r server max driver < <(jq -r '.ordersDatabase | "\(.server) \(.maximumPoolSize) \(.driver // "jdbc")"' <<<"$info")
  restarts=$(kc get pods -l app=orders-service -o jsonpath='{.items[*].status.containerStatuses[0].restartCount}')
  if [[ $(jq -r '.knobs.orders.store' <<<"$info") == "$store" && $server == external && $max == "$pool" \
      && $driver == "$([[ $store == r2dbc ]] && echo r2dbc || echo jdbc)" ]]; then
    pass "8 orders-service runs the $store store: /actuator/info store $store, driver $driver, server $server ($(jq -r '.knobs.orders.db.url' <<<"$info")), pool of $max; restarts: $restarts"
  else
    fail "8 orders-service's /actuator/info: store '$(jq -r '.knobs.orders.store' <<<"$info")', driver '$driver', server '$server', pool '$max' (want $store, external, $pool)"
  fi
  out=$(bodies "$work/$store")
  for variant in "${variants[@]}"; do
    for s in $(strategies); do
      if [[ $(cat "$work/$store-$variant-$s") == "$(cat "$work/memory-$variant-$s")" ]]; then
        same=$((same + 1))
      else
        differ=$((differ + 1)); detail "$variant $s: $(cat "$work/$store-$variant-$s") on $store, $(cat "$work/memory-$variant-$s") on memory"
      fi
    done
  done
  if [[ -z $out ]] && ((differ == 0 && same > 0)); then
    pass "8 main-service on the $store store: $same answers (every strategy, every variant) 200 and byte-identical to the memory store's (body sha256 $(cat "$work/$store-main-service-virtual-scopeFork"))"
  else
    fail "8 main-service on the $store store: $differ bodies differ from the memory store's, not 200: '$out'"
  fi
  check8_prometheus "$pool" "$store"
  check8_dashboards
}

# the dashboards on a database store: every query has data, the database pool row's lines of the driver that runs
# included, after a load of every strategy through every variant (hey from the node's network namespace, 2 s each:
# inside the rate window). The other driver's lines must be empty: when check 8 loaded the other driver just before,
# its load must first leave the rate window (else its rates still have data there), hence the wait.
check8_dashboards() {
  local variant url s wait_s
  if [[ -n $check8_loaded ]]; then
    wait_s=$((dashboard_rate_s + 10 - (SECONDS - check8_loaded)))
    if ((wait_s > 0)); then
      detail "waiting $wait_s s: the previous driver's load leaves the dashboards' ${dashboard_rate_s} s rate window first"
      sleep "$wait_s"
    fi
  fi
  for variant in "${variants[@]}"; do
    url=$(service_url "$variant")
    for s in $(strategies); do
      in_ns timeout 30 hey -z 2s -c 10 "$url$orders?concurrency=$s" >/dev/null 2>&1
    done
  done
  check8_loaded=$SECONDS
  prometheus_port_forward 19091
  sleep 12   # two scrape intervals (5 s): the last scrape holds the load
  dashboards_have_data 8 19091 "$(scraped_apps)"
  kill "$pf_pid" 2>/dev/null; pf_pid=
}

# the pool series of STORE's driver for orders-service's pool in the in-cluster Prometheus, as the dashboards would
# query them
check8_prometheus() {
  local pool=$1 store=$2 selector='namespace="fanout-lab",app="orders-service",application="orders-service",pool="orders-db"' \
    size_s active_s acquired_s name max active acquired
  read -r size_s active_s acquired_s name < <(pool_series "$store")
  prometheus_port_forward 19091
  for _ in $(seq 1 24); do   # the new pod's first scrapes: every 5 s
    max=$(prometheus_value "$size_s{$selector}")
    acquired=$(prometheus_value "$acquired_s{$selector}")
    [[ -n $max && -n $acquired && $acquired != 0 ]] && break
    sleep 5
  done
  active=$(prometheus_value "$active_s{$selector}")
  if [[ $max == "$pool" && -n $active && -n $acquired && $acquired != 0 ]]; then
    pass "8 Prometheus has orders-service's $name series: $size_s{$selector} $max, $active_s $active, $acquired_s $acquired"
    detail "$(in_ns curl -s "http://127.0.0.1:19091/api/v1/query" --data-urlencode "query=$size_s{pool=\"orders-db\"}" | jq -c '.data.result[0].metric')"
  else
    fail "8 $name series in Prometheus: $size_s '$max' (want $pool), $active_s '$active', $acquired_s '$acquired'"
    detail "$(in_ns curl -s "http://127.0.0.1:19091/api/v1/series" --data-urlencode "match[]={__name__=~\"${size_s%%_*}_.*\"}" | jq -c '.data[:3]')"
  fi
  kill "$pf_pid" 2>/dev/null; pf_pid=
}

# back to the deployment ./lab cluster up made: orders-service on the memory store, PostgreSQL's objects deleted;
# the claim data-postgres-0 stays bound (a StatefulSet's claims outlive it), so that check 8 can run again on its data
check8_restore() {
  local out
  local store
  if out=$("${KUBECTL[@]}" apply -k k8s/tests/cluster 2>&1) && kc rollout status deployment/orders-service --timeout=300s >/dev/null 2>&1 \
      && store=$(orders_info | jq -r '.knobs.orders.store') && [[ $store == memory ]]; then
    kc delete statefulset,service,serviceaccount,secret -l app.kubernetes.io/instance=orders-db --wait=false >/dev/null 2>&1
    kc get configmap -o name | grep '^configmap/orders-db-knobs-' | xargs -r "${KUBECTL[@]}" -n "$lab_namespace" delete >/dev/null 2>&1
    pass "8 restored: orders-service on the $store store again (k8s/tests/cluster), PostgreSQL's objects deleted, claim data-postgres-0 kept"
  else
    fail "8 restoring the memory store (kubectl apply -k k8s/tests/cluster)"; detail "$out"
  fi
}

# pod_state APP: "name restartCount" of APP's pod (not one a rollout is still deleting)
pod_state() {
  kc get pods -l "app=$1" -o json | jq -r '[.items[] | select(.metadata.deletionTimestamp == null)][0]
    | "\(.metadata.name) \(.status.containerStatuses[0].restartCount)"'
}

# admission_follows_heap VARIANT [WANT_LIMIT]: the variant's /actuator/info admission limit is WANT_LIMIT (default: fixed
# mode's own, 200 or the ceiling if lower: AdmissionProperties.DEFAULT_FIXED) and its ceiling is the heap's, max heap x
# heap-share / bytes-per-request (main-service's application.yml
# defaults, which k8s/ does not override), computed here from the heap the JVM reports (Runtime.maxMemory); that heap
# in turn must be the pod's memory limit x the image's -XX:MaxRAMPercentage (read from the JVM's own arguments), within
# 5 %: the JVM rounds the heap to its alignment, and under the serial collector, which it picks for a container below
# 1,792 MiB, Runtime.maxMemory leaves out one survivor space.
admission_follows_heap() {
  local variant=$1 want_limit=${2:-} info memory pct heap limit ceiling mode share per_request want ratio gc
  share=$(sed -n 's/^ *heap-share: *\([0-9.]*\).*/\1/p' main-service/src/main/resources/application.yml)
  per_request=$(sed -n 's/^ *bytes-per-request: *\([0-9]*\)KB.*/\1/p' main-service/src/main/resources/application.yml)
  info=$(actuator_info "$variant")
  memory=$(kc get deployment "$variant" -o jsonpath='{.spec.template.spec.containers[0].resources.limits.memory}')
  read -r heap pct limit ceiling mode gc < <(jq -r '[.knobs.runtime.maxHeapBytes, (first(.knobs.runtime.jvmInputArguments[]
    | select(startswith("-XX:MaxRAMPercentage=")) | ltrimstr("-XX:MaxRAMPercentage=")) // "none"), .admission.limit,
    .admission.ceiling, .admission.mode, (.knobs.runtime.garbageCollectors | join(","))] | map(tostring) | join(" ")' <<<"$info")
  want=$(awk -v h="$heap" -v s="$share" -v b="$per_request" 'BEGIN {printf "%d", h * s / (b * 1024)}')   # Spring's KB: 1,024 bytes
  [[ -n $want_limit ]] || want_limit=$(( want < 200 ? want : 200 ))
  ratio=$(awk -v h="$heap" -v m="$(numfmt --from=iec-i "$memory")" -v p="$pct" 'BEGIN {printf "%.3f", h / (m * p / 100)}')
  if [[ $mode == fixed && $limit == "$want_limit" && $ceiling == "$want" ]] \
      && awk -v r="$ratio" 'BEGIN {exit !(r >= 0.95 && r <= 1.05)}'; then
    pass "9 $variant: admission limit $limit ($mode, at most its ceiling); ceiling $ceiling = heap $((heap >> 20)) MiB x $share / $per_request KiB, that heap = $ratio x $pct % of the pod's $memory memory limit ($gc)"
  else
    fail "9 $variant admission: mode '$mode', limit '$limit' (want $want_limit), ceiling '$ceiling' (want $want = heap $heap x $share / $per_request KiB), heap / ($pct % of $memory) = $ratio (want 0.95..1.05)"
    detail "$(jq -c '.admission' <<<"$info" 2>&1)"
  fi
}

# The limit follows the pod's memory limit (every variant as k8s/ deploys them); then k8s/tests/cluster-burst lowers one
# variant's limit and its load Job bursts that variant alone past it (hey in a pod, through the variant's Service,
# bounded by the Job's duration): every 429 is an admission refusal (main-service's default status for it), in flight stays at the limit, no pod restarts, and
# the other variants see neither a request nor a refusal. Read as Grafana's admission row would, from Prometheus.
check9() {
  local variant target others lowered before_target before_other after_target after_other out codes ok200 ok429 \
    other_requests other_before other_after rejected rejected_other http429 in_flight limit_gauge start end rates q
  for variant in "${variants[@]}"; do admission_follows_heap "$variant"; done
  kc delete job hey-load --ignore-not-found >/dev/null
  if ! out=$("${KUBECTL[@]}" apply -k k8s/tests/cluster-burst -l 'app.kubernetes.io/component!=load-generator' 2>&1); then
    fail "9 kubectl apply -k k8s/tests/cluster-burst"; detail "$out"; return
  fi
  # the variant whose Deployment the overlay gives a limit of its own, and that limit
  target=$(kc get deployments -o json | jq -r '.items[] | select(any(.spec.template.spec.containers[0].env[]?;
    .name == "FANOUT_ADMISSION_MAX_IN_FLIGHT")) | .metadata.name')
  lowered=$(kc get deployment "$target" -o jsonpath='{.spec.template.spec.containers[0].env[?(@.name=="FANOUT_ADMISSION_MAX_IN_FLIGHT")].value}')
  # the other variants, as a PromQL regex (main-service-platform|main-service-netty)
  others=$(printf '%s\n' "${variants[@]}" | grep -vx "$target" | paste -sd'|')
  before_other=$(for v in ${others//|/ }; do pod_state "$v"; done | paste -sd' ')
  if ! kc rollout status deployment/"$target" --timeout=300s >/dev/null 2>&1; then
    fail "9 $target with its limit lowered not rolled out"; detail "$(kc get pods -l "app=$target" -o wide 2>&1)"
    check9_restore "$target"; return
  fi
  admission_follows_heap "$target" "$lowered"
  before_target=$(pod_state "$target")
  prometheus_port_forward 19091
  for _ in $(seq 1 24); do   # the new pod's first scrapes: every 5 s
    [[ $(prometheus_value "sum(fanout_admission_limit{application=\"$target\"})") == "$lowered" ]] && break
    sleep 5
  done
  # the other variants' backoffice requests so far: 0 (not absent) when they have served none but are scraped
  other_requests="sum(http_server_requests_seconds_count{application=~\"$others\", uri=~\"/backoffice/.*\"}) or 0 * sum(up{app=~\"$others\"} == 1)"
  other_before=$(prometheus_value "$other_requests")
  "${KUBECTL[@]}" apply -k k8s/tests/cluster-burst -l app.kubernetes.io/component=load-generator >/dev/null
  if kc wait --for=condition=Complete job/hey-load --timeout=180s >/dev/null 2>&1; then
    kc logs job/hey-load >"$work/burst.log" 2>&1
  else
    fail "9 the burst Job did not complete within 180 s"; detail "$(kc logs job/hey-load --tail=5 2>&1)"
    kill "$pf_pid" 2>/dev/null; pf_pid=; check9_restore "$target"; return
  fi
  read -r start end < <(kc get job hey-load -o json | jq -r '[.status.startTime, .status.completionTime]
    | map(fromdateiso8601) | "\(.[0]) \(.[1])"')
  sleep 12   # two scrape intervals (5 s): the last scrape holds the whole burst
  codes=$(sed -n '/Status code distribution/,/^$/p' "$work/burst.log" | awk '/\[/ {print $1 $2}' | paste -sd' ')
  ok200=$(grep -o '\[200\][0-9]*' <<<"$codes" | cut -d']' -f2); ok429=$(grep -o '\[429\][0-9]*' <<<"$codes" | cut -d']' -f2)
  if [[ $codes =~ ^\[200\][0-9]+\ \[429\][0-9]+$ ]] && ! grep -q 'Error distribution' "$work/burst.log"; then
    pass "9 $target burst ($(grep '^===' "$work/burst.log" | sed 's/.*: //'), from a pod, $((end - start)) s): $ok200 x 200, $ok429 x 429, nothing else"
  else
    fail "9 $target burst: status codes '$codes' (want 200s and 429s only)"; detail "$(sed -n '/Status code distribution/,$p' "$work/burst.log" | head -12)"
  fi
  rejected=$(prometheus_value "sum(fanout_admission_requests_total{application=\"$target\", outcome=\"rejected\"})")
  rejected_other=$(prometheus_value "sum(fanout_admission_requests_total{application=~\"$others\", outcome=\"rejected\"})")
  http429=$(prometheus_value "sum(http_server_requests_seconds_count{application=\"$target\", uri=\"$orders\", status=\"429\"})")
  if [[ -n $ok429 && $rejected == "$ok429" && $http429 == "$ok429" && $rejected_other == 0 ]]; then
    pass "9 every 429 was admission's: fanout_admission_requests_total{outcome=\"rejected\"} $rejected = hey's 429s = http_server_requests 429s under uri $orders; ${others//|/, }: rejected $rejected_other"
  else
    fail "9 rejected in Prometheus: $target '$rejected', http_server_requests 429 under $orders '$http429' (want both = hey's '$ok429' 429s), ${others//|/, } '$rejected_other' (want 0)"
  fi
  in_flight=$(prometheus_value "max_over_time(sum(fanout_admission_in_flight{application=\"$target\"})[$((end - start + 5))s:1s])" "$end")
  limit_gauge=$(prometheus_value "sum(fanout_admission_limit{application=\"$target\"})" "$end")
  if [[ $in_flight == "$lowered" && $limit_gauge == "$lowered" ]]; then
    pass "9 $target in flight at most $in_flight during the burst = its limit line $limit_gauge"
  else
    fail "9 $target in flight: maximum over the burst '$in_flight', limit gauge '$limit_gauge' (want both $lowered)"
  fi
  rates=$(for o in admitted rejected; do echo "$o $(prometheus_value "sum(rate(fanout_admission_requests_total{application=\"$target\", outcome=\"$o\"}[$((end - start))s]))" "$end" | awk '{printf "%.1f", $1}')/s,"; done | paste -sd' ')
  for q in 0.5 0.99; do
    rates+=" p$(awk -v q=$q 'BEGIN {print q * 100}') $(prometheus_value "histogram_quantile($q, sum by (le) (rate(http_server_requests_seconds_bucket{application=\"$target\", uri=~\"/backoffice/.*\"}[$((end - start))s])))" "$end" | awk '{printf "%.0f", $1 * 1000}') ms,"
  done
  detail "$target over the Job's $((end - start)) s (the refusals count in the latency too): ${rates%,}"
  after_target=$(pod_state "$target"); after_other=$(for v in ${others//|/ }; do pod_state "$v"; done | paste -sd' ')
  other_after=$(prometheus_value "$other_requests")
  if [[ $after_target == "$before_target" && $after_other == "$before_other" ]]; then
    pass "9 no restart: pod and restartCount before and after the burst, $target: $after_target, ${others//|/, }: $after_other"
  else
    fail "9 restarts: $target '$before_target' -> '$after_target', ${others//|/, } '$before_other' -> '$after_other' (name restartCount)"
  fi
  if [[ -n $other_before && $other_after == "$other_before" ]]; then
    pass "9 ${others//|/, } untouched: their backoffice requests in Prometheus $other_after before and after the burst"
  else
    fail "9 ${others//|/, }: backoffice requests in Prometheus: '$other_before' before the burst, '$other_after' after (want equal)"
  fi
  kill "$pf_pid" 2>/dev/null; pf_pid=
  check9_restore "$target"
}

# back to the deployment ./lab cluster up made (k8s/tests/cluster): the variant's own limit removed, the Job deleted
check9_restore() {
  local out
  kc delete job hey-load --ignore-not-found >/dev/null
  if out=$("${KUBECTL[@]}" apply -k k8s/tests/cluster 2>&1) && kc rollout status deployment/"$1" --timeout=300s >/dev/null 2>&1; then
    pass "9 restored: k8s/tests/cluster applied again, $1 rolled out without its own limit, the burst Job deleted"
  else
    fail "9 restoring k8s/tests/cluster"; detail "$out"
  fi
}

source scripts/cluster/check-zipkin.sh   # check10

echo "cluster check: node $node ($node_ip), namespace $lab_namespace"
checks=("$@")
(( ${#checks[@]} )) || checks=(1 2 3 4 5 6 7 8 9 10)
for n in "${checks[@]}"; do
  [[ $n =~ ^([1-9]|10)$ ]] || { echo "usage: $0 [CHECK...]   (checks 1 to 10; default all)" >&2; exit 2; }
  start=$SECONDS
  "check$n"
  echo "        (check $n: $((SECONDS - start)) s)"
done
if ((failed)); then echo "cluster check: $failed FAILED"; else echo "cluster check: all passed"; fi
exit "$failed"
