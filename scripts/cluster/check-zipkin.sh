# ./lab cluster check 10 (sourced by scripts/cluster/check.sh, whose helpers it uses): k8s/components/zipkin on the
# real cluster. Traces: a request per strategy with a traceparent of its own, sampled, must come back from Zipkin's
# API with its 7 spans; a service that does not export (no endpoint, a wrong one) leaves Zipkin without them and
# fails. Exemplars: Prometheus' /api/v1/query_exemplars on the request-latency histogram must give a trace id that
# is one of those traces, the link a latency panel's dot opens. Then k8s/tests/cluster again, Zipkin deleted.

# spans: main-service's server span, its 3 client spans, the 3 downstreams' server spans (ZipkinTracesIT.PLAIN_SPANS)
zipkin_spans_per_request=7

check10() {
  local out zipkin url variant=main-service-virtual s id code count ok=0 bad=0 ids=() sent=()
  if ! out=$("${KUBECTL[@]}" apply -k k8s/tests/cluster-zipkin 2>&1) || ! check10_rolled_out; then
    fail "10 k8s/tests/cluster-zipkin not applied and rolled out"; detail "$out" "$(kc get pods -o wide 2>&1)"
    check10_restore; return
  fi
  zipkin=$(service_url zipkin)
  pass "10 Zipkin ready at $zipkin ($(kc get deployment zipkin -o jsonpath='{.spec.template.spec.containers[0].image}')), the services restarted with tracing.env's knobs"
  url=$(service_url "$variant")
  for s in $(strategies); do
    id=$(od -An -tx1 -N16 /dev/urandom | tr -d ' \n')
    sent+=("$id")
    code=$(in_ns curl -s -o /dev/null -w '%{http_code}' --max-time 30 \
      -H "traceparent: 00-$id-$(od -An -tx1 -N8 /dev/urandom | tr -d ' \n')-01" "$url$orders?concurrency=$s")
    count=$(check10_spans "$zipkin" "$id")
    if [[ $code == 200 && $count == "$zipkin_spans_per_request" ]]; then
      ok=$((ok + 1)); ids+=("$id")
    else
      bad=$((bad + 1)); detail "$s: HTTP $code, trace $id has ${count:-no} spans in Zipkin (want $zipkin_spans_per_request)"
    fi
  done
  if ((ok > 0 && bad == 0)); then
    pass "10 $ok strategies through $variant, each with its own sampled traceparent: Zipkin's API has each trace with its $zipkin_spans_per_request spans (e.g. $zipkin/zipkin/traces/${ids[0]})"
  else
    fail "10 traces in Zipkin: $ok strategies with their $zipkin_spans_per_request spans, $bad without"
  fi
  check10_exemplars "$zipkin" "${sent[@]}"
  check10_restore
}

# every Deployment of the lab and Zipkin rolled out (the knobs ConfigMaps' new hashes restart the services)
check10_rolled_out() {
  local d
  for d in zipkin $(kc get deployments -l "$lab_services" -o name | sed 's|.*/||'); do
    kc rollout status deployment/"$d" --timeout=300s >/dev/null 2>&1 || { echo "deployment $d"; return 1; }
  done
}

# check10_spans ZIPKIN TRACE_ID: the trace's span count once it stops growing (Brave reports each second), 0 if none
check10_spans() {
  local count=0 last=-1
  for _ in $(seq 1 20); do
    count=$(in_ns curl -s "$1/api/v2/trace/$2" | jq 'if type == "array" then length else 0 end' 2>/dev/null)
    [[ ${count:-0} -ge $zipkin_spans_per_request && $count == "$last" ]] && break
    last=${count:-0}
    sleep 1
  done
  echo "${count:-0}"
}

# check10_exemplars ZIPKIN TRACE_ID...: Prometheus' exemplars of the backoffice requests' latency buckets name one of
# the traces just sent, and Zipkin has that trace with its spans (what Grafana's "Open in Zipkin" opens)
check10_exemplars() {
  local zipkin=$1 found=() id hit='' spans end query='http_server_requests_seconds_bucket{namespace="fanout-lab", uri=~"/backoffice/.*"}'
  shift
  prometheus_port_forward 19091
  for _ in $(seq 1 8); do   # the next scrapes (every 5 s) carry them
    end=$(date +%s)
    mapfile -t found < <(in_ns curl -s "http://127.0.0.1:19091/api/v1/query_exemplars" --data-urlencode "query=$query" \
      --data-urlencode "start=$((end - 300))" --data-urlencode "end=$end" \
      | jq -r '.data[]?.exemplars[]?.labels.trace_id // empty' | sort -u)
    for id in "$@"; do [[ " ${found[*]} " == *" $id "* ]] && { hit=$id; break; }; done
    [[ -n $hit ]] && break
    sleep 5
  done
  kill "$pf_pid" 2>/dev/null; pf_pid=
  [[ -z $hit ]] || spans=$(check10_spans "$zipkin" "$hit")
  if [[ -z $hit ]]; then
    fail "10 exemplars: none of the ${#found[@]} trace ids on the backoffice latency buckets is a trace just sent (${found[*]:0:3})"
  elif [[ $spans != "$zipkin_spans_per_request" ]]; then
    fail "10 exemplars: trace_id $hit on the backoffice latency buckets is a trace just sent, but Zipkin has $spans of its $zipkin_spans_per_request spans"
  else
    pass "10 Prometheus has ${#found[@]} exemplars on the backoffice latency buckets; trace_id $hit is one of the traces sent, and Zipkin has its $spans spans"
  fi
}

# back to the deployment ./lab cluster up made (k8s/tests/cluster): the services without the endpoint, Zipkin deleted
check10_restore() {
  local out d
  if out=$("${KUBECTL[@]}" apply -k k8s/tests/cluster 2>&1); then
    kc delete deployment,service,serviceaccount -l app.kubernetes.io/instance=zipkin --timeout=120s >/dev/null 2>&1
    for d in $(kc get deployments -l "$lab_services" -o name); do
      kc rollout status "$d" --timeout=300s >/dev/null 2>&1 || out+=" ${d#*/} not rolled out"
    done
  fi
  if [[ $out != *"not rolled out"* ]] && ! kc get deployment zipkin >/dev/null 2>&1; then
    pass "10 restored: k8s/tests/cluster applied again, the services rolled out without Zipkin's endpoint, Zipkin deleted"
  else
    fail "10 restoring k8s/tests/cluster"; detail "$out"
  fi
}
