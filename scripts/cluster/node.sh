#!/usr/bin/env bash
# A single-node Kubernetes cluster inside a network namespace of its own (./lab cluster up|down, k8s/README.md).
#   scripts/cluster/node.sh start   certificates, configs, then etcd, kube-apiserver, kube-controller-manager,
#                                   kube-scheduler, containerd, kubelet, kube-proxy, CoreDNS, the node's storage
#                                   (a default StorageClass and one local PersistentVolume); waits for a Ready node
#   scripts/cluster/node.sh stop    deletes the pods, stops every process it started (by pid), unmounts what the
#                                   kubelet and containerd mounted, deletes the namespace and the state
#   scripts/cluster/node.sh status  up (a process runs in the namespace), leftover (the namespace without a
#                                   process: a teardown cut short, e.g. a machine stopped mid-`down`) or none
#   scripts/cluster/node.sh env     prints the variables the other cluster scripts use (sourced)
# The flags follow Kubernetes' own hack/local-up-cluster.sh (module k8s.io/kubernetes), with openssl instead of
# cfssl and the settings this kind of machine needs: containerd restrict_oom_score_adj, kubelet cgroupfs driver.
# Network: every process runs in namespace $ns; pod, Service and node addresses exist only there, and the only
# route out of it ends at an interface inside it that drops everything. Reach it with nsenter --net (./lab cluster exec).
# Needs root, iproute2, iptables, openssl, containerd, runc, the CNI plugins, etcd (Debian packages) and the
# binaries of scripts/cluster/build-k8s.sh.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

ns=${FANOUT_LAB_NETNS:-fanout-lab-k8s}
state=${FANOUT_LAB_CLUSTER_DIR:-/var/tmp/fanout-lab-cluster}
node=fanout-lab-node
node_ip=10.200.0.1          # on interface node0 inside $ns only
service_cidr=10.96.0.0/16
api_service_ip=10.96.0.1    # the first address of $service_cidr: Service "kubernetes"
dns_ip=10.96.0.10
pod_cidr=10.244.0.0/16
pod_subnet=10.244.0.0/24    # this node's share, on bridge cni0
kube_bin=$("$here/build-k8s.sh" --print-dir)
kubeconfig=$state/pki/admin.kubeconfig
export KUBECONFIG=$kubeconfig

# nsenter, not `ip netns exec`: that one also gives the process a mount namespace of its own with a new /sys,
# which hides the cgroup mounts from the kubelet and the kubelet's volume mounts from containerd
in_ns() { nsenter --net="/run/netns/$ns" "$@"; }
kc() { in_ns kubectl --kubeconfig "$kubeconfig" "$@"; }

# run NAME COMMAND...: starts COMMAND inside $ns in the background, its own session (no SIGINT from the caller),
# pid in $state/pids/NAME, output in $state/logs/NAME.log
run() {
  local name=$1
  shift
  setsid nsenter --net="/run/netns/$ns" "$@" >"$state/logs/$name.log" 2>&1 </dev/null &
  echo $! >"$state/pids/$name"
}

# wait_for WHAT SECONDS COMMAND...: polls COMMAND every second; on time-out prints the last log lines of WHAT
wait_for() {
  local what=$1 seconds=$2 i
  shift 2
  for ((i = 0; i < seconds; i++)); do
    "$@" >/dev/null 2>&1 && return 0
    sleep 1
  done
  echo "cluster: $what not ready after $seconds s; last lines of $state/logs/$what.log:" >&2
  tail -20 "$state/logs/$what.log" >&2 || true
  return 1
}

# --- certificates: one CA; a serving certificate for the API server; a client certificate per component, its
# user and group what the API server's default RBAC expects (local-up-cluster.sh does the same with cfssl)
make_pki() {
  local pki=$state/pki
  mkdir -p "$pki"
  openssl req -x509 -newkey rsa:2048 -nodes -days 30 -subj /CN=fanout-lab-ca \
    -keyout "$pki/ca.key" -out "$pki/ca.crt" 2>/dev/null
  openssl genrsa -out "$pki/sa.key" 2048 2>/dev/null
  openssl rsa -in "$pki/sa.key" -pubout -out "$pki/sa.pub" 2>/dev/null
  sign apiserver "/CN=kube-apiserver" \
    "subjectAltName=IP:$node_ip,IP:$api_service_ip,IP:127.0.0.1,DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,DNS:kubernetes.default.svc.cluster.local"
  sign apiserver-kubelet-client "/O=system:masters/CN=kube-apiserver-kubelet-client"
  client admin "/O=system:masters/CN=fanout-lab-admin"
  client controller-manager "/CN=system:kube-controller-manager"
  client scheduler "/CN=system:kube-scheduler"
  client kubelet "/O=system:nodes/CN=system:node:$node"
  client kube-proxy "/CN=system:kube-proxy"
}
sign() {   # sign NAME SUBJECT [SAN-EXTENSION]
  local pki=$state/pki ext
  ext=$(mktemp)
  echo "${3:-basicConstraints=CA:FALSE}" >"$ext"
  openssl req -newkey rsa:2048 -nodes -subj "$2" -keyout "$pki/$1.key" -out "$pki/$1.csr" 2>/dev/null
  openssl x509 -req -in "$pki/$1.csr" -CA "$pki/ca.crt" -CAkey "$pki/ca.key" -CAcreateserial -days 30 \
    -extfile "$ext" -out "$pki/$1.crt" 2>/dev/null
  rm -f "$ext" "$pki/$1.csr"
}
client() {   # client NAME SUBJECT: a certificate and a kubeconfig $state/pki/NAME.kubeconfig
  local pki=$state/pki file=$state/pki/$1.kubeconfig
  sign "$1" "$2"
  kubectl config set-cluster fanout-lab --server="https://$node_ip:6443" --certificate-authority="$pki/ca.crt" \
    --embed-certs --kubeconfig="$file" >/dev/null
  kubectl config set-credentials "$1" --client-certificate="$pki/$1.crt" --client-key="$pki/$1.key" \
    --embed-certs --kubeconfig="$file" >/dev/null
  kubectl config set-context fanout-lab --cluster=fanout-lab --user="$1" --kubeconfig="$file" >/dev/null
  kubectl config use-context fanout-lab --kubeconfig="$file" >/dev/null
}

make_network() {
  ip netns add "$ns"
  in_ns ip link set lo up
  # the node's address on one end of a veth pair whose both ends stay inside $ns; the default route leads there,
  # so that the node has an address to report and Service IPs are routable before kube-proxy's DNAT. What
  # reaches the other end is dropped: nothing leaves the namespace (and there is no link out of it anyway).
  in_ns ip link add node0 type veth peer name node0-end
  in_ns ip addr add "$node_ip/32" dev node0
  in_ns ip link set node0 up
  in_ns ip link set node0-end up
  in_ns ip route add default dev node0
  in_ns sysctl -qw net.ipv4.ip_forward=1
  in_ns iptables -I FORWARD -i node0-end -j DROP
}

write_configs() {
  local pki=$state/pki
  mkdir -p "$state/cni" "$state/config"
  sed "s|@STATE@|$state|g" "$here/containerd.toml" >"$state/config/containerd.toml"
  cp "$here/cni.conflist" "$state/cni/10-fanout-lab.conflist"
  sed -e "s|@STATE@|$state|g" -e "s|@NODE_IP@|$node_ip|g" -e "s|@DNS_IP@|$dns_ip|g" \
    "$here/kubelet.yaml" >"$state/config/kubelet.yaml"
  cat >"$state/config/kube-proxy.yaml" <<YAML
apiVersion: kubeproxy.config.k8s.io/v1alpha1
kind: KubeProxyConfiguration
clientConnection:
  kubeconfig: $pki/kube-proxy.kubeconfig
hostnameOverride: $node
bindAddress: $node_ip
clusterCIDR: $pod_cidr
mode: iptables
conntrack:          # as local-up-cluster.sh: leave the kernel's conntrack sysctls alone
  maxPerCore: 0
  tcpEstablishedTimeout: 0s
  tcpCloseWaitTimeout: 0s
YAML
  cat >"$state/config/kube-scheduler.yaml" <<YAML
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
clientConnection:
  kubeconfig: $pki/scheduler.kubeconfig
leaderElection:
  leaderElect: false
YAML
}

start_control_plane() {
  local pki=$state/pki
  run etcd etcd --name fanout-lab --data-dir "$state/etcd" \
    --listen-client-urls http://127.0.0.1:2379 --advertise-client-urls http://127.0.0.1:2379 \
    --listen-peer-urls http://127.0.0.1:2380
  run kube-apiserver "$kube_bin/kube-apiserver" \
    --etcd-servers=http://127.0.0.1:2379 \
    --advertise-address="$node_ip" --bind-address=0.0.0.0 --secure-port=6443 \
    --tls-cert-file="$pki/apiserver.crt" --tls-private-key-file="$pki/apiserver.key" \
    --client-ca-file="$pki/ca.crt" \
    --kubelet-client-certificate="$pki/apiserver-kubelet-client.crt" \
    --kubelet-client-key="$pki/apiserver-kubelet-client.key" \
    --service-account-key-file="$pki/sa.pub" --service-account-signing-key-file="$pki/sa.key" \
    --service-account-issuer=https://kubernetes.default.svc \
    --service-cluster-ip-range="$service_cidr" \
    --authorization-mode=Node,RBAC \
    --kubelet-preferred-address-types=InternalIP \
    --enable-admission-plugins=NodeRestriction
  # InternalIP: to reach the kubelet (logs, exec, port-forward) at $node_ip; by default the API server would look
  # the node's name up in the machine's DNS first, a query that cannot leave the namespace
  wait_for kube-apiserver 60 kc get --raw /readyz
  run kube-controller-manager "$kube_bin/kube-controller-manager" \
    --kubeconfig="$pki/controller-manager.kubeconfig" \
    --authentication-kubeconfig="$pki/controller-manager.kubeconfig" \
    --authorization-kubeconfig="$pki/controller-manager.kubeconfig" \
    --bind-address=127.0.0.1 --leader-elect=false --use-service-account-credentials \
    --service-account-private-key-file="$pki/sa.key" --root-ca-file="$pki/ca.crt" \
    --cluster-signing-cert-file="$pki/ca.crt" --cluster-signing-key-file="$pki/ca.key" \
    --service-cluster-ip-range="$service_cidr"
  run kube-scheduler "$kube_bin/kube-scheduler" --config="$state/config/kube-scheduler.yaml" \
    --authentication-kubeconfig="$pki/scheduler.kubeconfig" --authorization-kubeconfig="$pki/scheduler.kubeconfig" \
    --bind-address=127.0.0.1
}

start_node() {
  local pki=$state/pki
  run containerd containerd --config "$state/config/containerd.toml"
  wait_for containerd 30 ctr --address "$state/containerd.sock" version
  run kubelet "$kube_bin/kubelet" --config="$state/config/kubelet.yaml" \
    --kubeconfig="$pki/kubelet.kubeconfig" --root-dir="$state/kubelet" \
    --hostname-override="$node" --node-ip="$node_ip"
  run kube-proxy "$kube_bin/kube-proxy" --config="$state/config/kube-proxy.yaml"
  wait_for kubelet 90 kc wait --for=condition=Ready "node/$node" --timeout=1s
}

# Kubernetes' own CoreDNS add-on (cluster/addons/dns/coredns/coredns.yaml.in of the module), filled in as
# local-up-cluster.sh does, on our image; no `forward` and `loop`: names outside the cluster are not resolved,
# so that nothing inside can look beyond the namespace
start_dns() {
  local module
  module=$(cd "$here/k8s-build" && GONOSUMDB=k8s.io GOFLAGS=-modcacherw go list -m -f '{{.Dir}}' k8s.io/kubernetes)
  sed -e 's/dns_domain/cluster.local/g' -e "s/dns_server/$dns_ip/g" -e 's/dns_memory_limit/170Mi/g' \
    -e 's|image: .*coredns.*|image: fanout-lab/coredns:1.12.0|' \
    -e '/forward \. \/etc\/resolv.conf {/,/}/d' -e '/^ *loop$/d' \
    "$module/cluster/addons/dns/coredns/coredns.yaml.in" | kc apply -f - >/dev/null
}

# The node's storage. No dynamic provisioner runs here: the controller manager's in-tree volume plugins provision no
# local disk, and there is no CSI driver or local-path provisioner (kind's node has one; its image cannot be had
# here). So the storage is static, as on a bare-metal cluster: a default StorageClass without a provisioner, which
# binds a claim once its pod is scheduled (WaitForFirstConsumer), and one local PersistentVolume of it on this
# node, a folder of the state directory, enough for k8s/components/postgres's one claim. A claim that names no
# class (as the component's) gets this one. A local volume, not hostPath: the kubelet applies a pod's fsGroup to it,
# so that PostgreSQL's non-root user can write it. Retain: deleting the claim leaves the data (and the volume
# Released until ./lab cluster down); k8s/README.md, "PostgreSQL".
start_storage() {
  mkdir -p "$state/volumes/local-0"
  kc apply -f - >/dev/null <<YAML
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: fanout-lab-local
  annotations:
    storageclass.kubernetes.io/is-default-class: "true"
provisioner: kubernetes.io/no-provisioner
volumeBindingMode: WaitForFirstConsumer
---
apiVersion: v1
kind: PersistentVolume
metadata:
  name: fanout-lab-local-0
spec:
  storageClassName: fanout-lab-local
  capacity:
    storage: 2Gi
  accessModes: [ReadWriteOnce]
  volumeMode: Filesystem
  persistentVolumeReclaimPolicy: Retain
  local:
    path: $state/volumes/local-0
  nodeAffinity:
    required:
      nodeSelectorTerms:
        - matchExpressions:
            - key: kubernetes.io/hostname
              operator: In
              values: [$node]
YAML
}

# status: up, leftover or none (see the header); a leftover holds no process, so removing it stops nothing
status() {
  [[ $(id -u) == 0 ]] || { echo "cluster: status needs root (ip netns pids): run as root or with sudo" >&2; exit 1; }
  ip netns list | grep -qw "$ns" || { echo none; return; }
  if [[ -n $(ip netns pids "$ns") ]]; then echo up; else echo leftover; fi
}

start() {
  [[ $(id -u) == 0 ]] || { echo "cluster: needs root (network namespace, containerd, kubelet): run as root or with sudo" >&2; exit 1; }
  case $(status) in
    up) echo "cluster: namespace $ns has processes in it: the cluster is up (./lab cluster down first to start anew)" >&2
        exit 1 ;;
    leftover) echo "cluster: namespace $ns is left without a process (a teardown cut short): removing it first"
              stop ;;
  esac
  rm -rf "$state"
  mkdir -p "$state/logs" "$state/pids"
  echo "cluster: state in $state, logs in $state/logs"
  make_pki
  make_network
  write_configs
  start_control_plane
  start_node
  start_dns
  start_storage
  echo "cluster: node $node Ready ($(kc get node "$node" -o jsonpath='{.status.nodeInfo.kubeletVersion}'))"
}

stop_pid() {   # stop_pid NAME: SIGTERM, then SIGKILL after 20 s, the process whose pid we wrote
  local file=$state/pids/$1 pid i
  [[ -f $file ]] || return 0
  pid=$(cat "$file")
  # setsid ran nsenter, which exec'd the component: the pid is the component's own
  if kill "$pid" 2>/dev/null; then
    for ((i = 0; i < 20; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
    kill -9 "$pid" 2>/dev/null || true
  fi
  rm -f "$file"
}

stop() {
  [[ $(id -u) == 0 ]] || { echo "cluster: needs root: run as root or with sudo" >&2; exit 1; }
  if [[ -d $state/pids ]]; then
    # pods first, while kubelet and containerd run, so that their containers, shims and network namespaces go
    if [[ -f $state/pids/kubelet ]] && kc get --raw /readyz >/dev/null 2>&1; then
      echo "cluster: deleting every pod ..."
      kc delete namespace fanout-lab --ignore-not-found --wait=false >/dev/null 2>&1 || true
      kc delete pods --all -A --grace-period=5 --timeout=60s >/dev/null 2>&1 || true
    fi
    for name in kube-proxy kubelet; do stop_pid "$name"; done
    if [[ -S $state/containerd.sock ]]; then   # whatever is left: stop and remove every pod sandbox
      local sandbox
      for sandbox in $(ctr --address "$state/containerd.sock" -n k8s.io tasks ls -q 2>/dev/null); do
        ctr --address "$state/containerd.sock" -n k8s.io tasks kill -s SIGKILL "$sandbox" >/dev/null 2>&1 || true
      done
    fi
    for name in containerd kube-scheduler kube-controller-manager kube-apiserver etcd; do stop_pid "$name"; done
  fi
  # the shims of our containerd (their parent was containerd; they name its state dir on their command line)
  pkill -f "containerd-shim-runc-v2 .*-address $state/containerd.sock" 2>/dev/null || true
  # mounts under our state dir: pods' volumes, projected tokens, rootfs, network namespaces
  local mount
  for mount in $(awk -v s="$state/" 'index($2, s) == 1 {print $2}' /proc/self/mounts | sort -r); do
    umount -l "$mount" 2>/dev/null || true
  done
  ip netns list | grep -qw "$ns" && ip netns delete "$ns"
  # the kubelet's cgroups (cgroupfs driver), now empty: rmdir refuses any that still holds a process
  find /sys/fs/cgroup/*/kubepods -depth -type d -exec rmdir {} + 2>/dev/null || true
  rm -rf "$state"
  echo "cluster: down (no process, mount or namespace left)"
}

case ${1:-} in
  start) start ;;
  stop) stop ;;
  status) status ;;
  env) printf 'ns=%q state=%q node=%q node_ip=%q kubeconfig=%q\n' "$ns" "$state" "$node" "$node_ip" "$kubeconfig" ;;
  *) echo "usage: $0 start|stop|status|env" >&2; exit 2 ;;
esac
