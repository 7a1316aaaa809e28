# Runs inside the Grafana provisioning check pod of scripts/cluster/check.sh (bash of debian:bookworm-slim), which
# mounts what the real Grafana Deployment mounts, where it mounts it. Reads the provisioning files as Grafana
# would find them and prints what it found, a line each; check.sh judges the lines.
set -u
for f in /etc/grafana/provisioning/datasources/*.yaml; do
  uid=$(sed -n 's/^ *uid: *\([^ #]*\).*/\1/p' "$f" | head -1)
  url=$(sed -n 's/^ *url: *\([^ #]*\).*/\1/p' "$f" | head -1)
  echo "DATASOURCE $(basename "$f") uid=$uid url=$url"
  # the datasource from where Grafana's backend would query it: Service name, DNS and port (bash's /dev/tcp)
  hostport=${url#http://}
  hostport=${hostport%%/*}
  if exec 3<>"/dev/tcp/${hostport%%:*}/${hostport##*:}"; then
    printf 'GET /api/v1/query?query=up HTTP/1.0\r\nHost: %s\r\n\r\n' "$hostport" >&3
    answer=$(cat <&3)
    echo "QUERY $url $(head -1 <<<"$answer" | tr -d '\r') $(grep -o '"status":"[a-z]*"' <<<"$answer")"
  else
    echo "QUERY $url unreachable"
  fi
done
for f in /etc/grafana/provisioning/dashboards/*.yaml; do
  path=$(sed -n 's/^ *path: *\([^ #]*\).*/\1/p' "$f" | head -1)
  echo "PROVIDER $(basename "$f") path=$path"
  for d in "$path"/*.json; do
    [ -f "$d" ] && echo "DASHBOARD $(basename "$d") $(sha256sum <"$d" | cut -c1-64)"
  done
done
