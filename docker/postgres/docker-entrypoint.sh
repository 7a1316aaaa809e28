#!/usr/bin/env bash
# The postgres image's start (docker/postgres/Dockerfile): on an empty PGDATA, initdb with the superuser
# POSTGRES_USER (default postgres) and the password POSTGRES_PASSWORD (required), password authentication
# (scram-sha-256) for every TCP client, listening on every address; then, on a temporary server that listens on the
# Unix socket only, the database POSTGRES_DB (default: the user's name). Then, and on every later start, the server
# itself in the foreground, as the container's process: `postgres ARGS...`. Anything else as the command runs as is.
# Writes only to PGDATA, the socket directory /var/run/postgresql and /tmp: the root filesystem may be read-only.
set -Eeuo pipefail

if [[ ${1:-} == -* ]]; then set -- postgres "$@"; fi
if [[ ${1:-} != postgres ]]; then exec "$@"; fi

user=${POSTGRES_USER:-postgres}
database=${POSTGRES_DB:-$user}
socket_dir=/var/run/postgresql

mkdir -p "$PGDATA"
# PostgreSQL refuses a data directory that others may read; a volume's fsGroup (Kubernetes) may have widened it
chmod 0700 "$PGDATA"

if [[ ! -s $PGDATA/PG_VERSION ]]; then
  if [[ -z ${POSTGRES_PASSWORD:-} ]]; then
    echo "docker-entrypoint.sh: POSTGRES_PASSWORD is empty; it is required (k8s/components/postgres gives it from a Secret)" >&2
    exit 1
  fi
  echo "docker-entrypoint.sh: initdb in $PGDATA (superuser $user, database $database)"
  initdb --pgdata="$PGDATA" --username="$user" --pwfile=<(printf '%s\n' "$POSTGRES_PASSWORD") \
    --auth-local=trust --auth-host=scram-sha-256 --encoding=UTF8 --locale=C.UTF-8
  # initdb allows TCP from the loopback addresses only; the lab's clients are other pods (or the test's host)
  printf '%s\n' '' '# docker-entrypoint.sh: every TCP client, with a password' \
    'host all all 0.0.0.0/0 scram-sha-256' 'host all all ::/0 scram-sha-256' >>"$PGDATA/pg_hba.conf"
  printf '%s\n' '' '# docker-entrypoint.sh' "listen_addresses = '*'" \
    "unix_socket_directories = '$socket_dir'" >>"$PGDATA/postgresql.conf"
  pg_ctl --pgdata="$PGDATA" --wait --options="-c listen_addresses='' -c unix_socket_directories=$socket_dir" start
  if [[ $database != postgres ]]; then
    # on standard input, where psql quotes the name (:"db"); --command does not interpolate variables
    echo 'CREATE DATABASE :"db";' | psql --no-psqlrc --quiet -v ON_ERROR_STOP=1 --host="$socket_dir" \
      --username="$user" --dbname=postgres --set=db="$database"
  fi
  pg_ctl --pgdata="$PGDATA" --wait --mode=fast stop
  echo "docker-entrypoint.sh: PostgreSQL initialised; starting it"
fi

exec "$@"
