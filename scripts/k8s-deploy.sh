# The part of a deployment that kind (scripts/kind.sh) and the real single-node cluster (scripts/cluster.sh) share,
# so that what CI proves on the one is what users run on the other: apply, wait for every rollout, print how to
# reach the lab. Sourced; the caller sets KUBECTL to its kubectl command line as an array, e.g.
#   KUBECTL=(kubectl --context kind-fanout-lab)
lab_namespace=fanout-lab      # = namespace: in k8s/kustomization.yaml

lab_kc() { "${KUBECTL[@]}" -n "$lab_namespace" "$@"; }

# lab_apply DIR: kubectl apply -k DIR
lab_apply() { "${KUBECTL[@]}" apply -k "$1"; }

# lab_wait SECONDS: every Deployment of the namespace rolled out, each within SECONDS
lab_wait() {
  local deployment
  for deployment in $(lab_kc get deployments -o name); do
    lab_kc rollout status "$deployment" --timeout="${1}s"
  done
}

lab_node_port() { lab_kc get service "$1" -o jsonpath='{.spec.ports[0].nodePort}'; }

# lab_summary HOST PREFIX: the URLs (at HOST's node ports) and the hey lines, each command behind PREFIX
# (empty for kind, whose ports the host maps; `./lab cluster exec` for the cluster in its network namespace)
lab_summary() {
  local host=$1 prefix=${2:+$2 } platform virtual path=/backoffice/api/v1/backoffice/orders
  platform=$(lab_node_port main-service-platform)
  virtual=$(lab_node_port main-service-virtual)
  cat <<TEXT
  main-service, platform threads  http://$host:$platform$path?concurrency=scopeFork
  main-service, virtual threads   http://$host:$virtual$path?concurrency=scopeFork
  Prometheus                      http://$host:$(lab_node_port prometheus)/targets
TEXT
  if lab_kc get deployment grafana >/dev/null 2>&1; then
    echo "  Grafana                         http://$host:$(lab_node_port grafana)   (anonymous viewer; admin/admin to edit)"
  fi
  cat <<TEXT

Load both variants, the same strategy, one after the other:
  ${prefix}hey -z 30s -c 100 'http://$host:$platform$path?concurrency=completableFutureWithThreadTaskExecutor'
  ${prefix}hey -z 30s -c 100 'http://$host:$virtual$path?concurrency=completableFutureWithThreadTaskExecutor'
TEXT
}
