# The part of a deployment that kind (scripts/kind.sh) and the real single-node cluster (scripts/cluster.sh) share,
# so that what CI proves on the one is what users run on the other: apply, wait for every rollout, print how to
# reach the lab. Sourced; the caller sets KUBECTL to its kubectl command line as an array, e.g.
#   KUBECTL=(kubectl --context kind-fanout-lab)
lab_namespace=fanout-lab      # = namespace: in k8s/kustomization.yaml
# the lab's own JVM services (main-service's variants and the downstreams), without Prometheus, Grafana and the Job,
# which carry app.kubernetes.io/part-of=fanout-lab too
lab_services='app.kubernetes.io/component in (aggregator,downstream)'

lab_kc() { "${KUBECTL[@]}" -n "$lab_namespace" "$@"; }

# lab_apply DIR: kubectl apply -k DIR
lab_apply() { "${KUBECTL[@]}" apply -k "$1"; }

# The command that puts the lab's images on the node, for the report of lab_missing_images; kind.sh sets it. The
# images are built here (scripts/build-images.sh), never pulled: a node without them cannot start the pods.
lab_images_fix=${lab_images_fix:-"./lab kind up (kind), or sudo ./lab cluster up (this machine's cluster)"}

# lab_missing_images: "pod image reason" for every container of the namespace waiting on a fanout-lab/* image that
# the node does not have (ErrImagePull, ImagePullBackOff, ErrImageNeverPull); nothing when there is none
lab_missing_images() {
  lab_kc get pods -o go-template="$lab_waiting_template" |
    awk '$2 ~ /(^|\/)fanout-lab\// && $3 ~ /^(ErrImagePull|ImagePullBackOff|ErrImageNeverPull)$/'
}
# "pod image reason" per waiting container, for a pod list or a single pod (so that it can be tried offline:
# kubectl annotate --local -f pods.json -o go-template=... x-)
lab_waiting_template='{{define "pod"}}{{$pod := .metadata.name}}{{range .status.initContainerStatuses}}{{if .state.waiting}}{{$pod}} {{.image}} {{.state.waiting.reason}}{{"\n"}}{{end}}{{end}}{{range .status.containerStatuses}}{{if .state.waiting}}{{$pod}} {{.image}} {{.state.waiting.reason}}{{"\n"}}{{end}}{{end}}{{end}}{{if .items}}{{range .items}}{{template "pod" .}}{{end}}{{else}}{{template "pod" .}}{{end}}'

# lab_report_missing_images: says which images are missing and the one command that loads them; 1 if any is missing
lab_report_missing_images() {
  local missing
  missing=$(lab_missing_images)
  [[ -z $missing ]] && return 0
  {
    echo "The lab's images are not on the node, so these pods cannot start (they are built here, never pulled):"
    awk '{ printf "  %-48s %-36s %s\n", $1, $2, $3 }' <<<"$missing"
    echo "Load them (builds the images and puts them on the node, then applies and waits):"
    echo "  $lab_images_fix"
  } >&2
  return 1
}

# lab_wait SECONDS: every Deployment (and StatefulSet: k8s/components/postgres) of the namespace rolled out within SECONDS. Stops early, with the command that
# loads them, when a pod waits for a fanout-lab/* image the node does not have (a plain kubectl apply -k k8s on a
# cluster without the images), instead of a bare rollout timeout.
lab_wait() {
  local deadline=$((SECONDS + $1)) deployment pending rolled=" "
  while :; do
    lab_report_missing_images || return 1
    pending=()
    for deployment in $(lab_kc get deployments,statefulsets -o name); do
      [[ $rolled == *" $deployment "* ]] && continue
      if lab_kc rollout status "$deployment" --timeout=1s >/dev/null 2>&1; then
        echo "$deployment rolled out"
        rolled+="$deployment "
      else
        pending+=("$deployment")
      fi
    done
    ((${#pending[@]} == 0)) && return 0
    if ((SECONDS >= deadline)); then
      echo "not rolled out within $1 s: ${pending[*]}" >&2
      lab_kc get pods -o wide >&2 || true
      return 1
    fi
    sleep 3
  done
}

lab_node_port() { lab_kc get service "$1" -o jsonpath='{.spec.ports[0].nodePort}'; }

# lab_summary HOST PREFIX: the URLs (at HOST's node ports) and the hey lines, each command behind PREFIX
# (empty for kind, whose ports the host maps; `./lab cluster exec` for the cluster in its network namespace)
lab_summary() {
  local host=$1 prefix=${2:+$2 } platform virtual netty path=/backoffice/api/v1/backoffice/orders
  platform=$(lab_node_port main-service-platform)
  virtual=$(lab_node_port main-service-virtual)
  netty=$(lab_node_port main-service-netty)
  cat <<TEXT
  main-service, platform threads  http://$host:$platform$path?concurrency=scopeFork
  main-service, virtual threads   http://$host:$virtual$path?concurrency=scopeFork
  main-service, Reactor Netty     http://$host:$netty$path?concurrency=scopeFork
  Prometheus                      http://$host:$(lab_node_port prometheus)/targets
TEXT
  if lab_kc get deployment grafana >/dev/null 2>&1; then
    echo "  Grafana                         http://$host:$(lab_node_port grafana)   (anonymous viewer; admin/admin to edit)"
  fi
  cat <<TEXT

Load the three variants, the same strategy, one after the other:
  ${prefix}hey -z 30s -c 100 'http://$host:$platform$path?concurrency=completableFutureWithThreadTaskExecutor'
  ${prefix}hey -z 30s -c 100 'http://$host:$virtual$path?concurrency=completableFutureWithThreadTaskExecutor'
  ${prefix}hey -z 30s -c 100 'http://$host:$netty$path?concurrency=completableFutureWithThreadTaskExecutor'
TEXT
}
