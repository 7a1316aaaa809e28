#!/usr/bin/env bash
# Builds the lab's container images from the services' jars: fanout-lab/<module>:<project version> with
# docker/Dockerfile, with --hey also fanout-lab/hey:0.1.4 (docker/hey/Dockerfile, for the load Job), with --postgres
# also fanout-lab/postgres:15 (docker/postgres/Dockerfile: Debian's postgresql, for k8s/components/postgres and
# orders-service's PostgresContainerIT), with --zipkin also fanout-lab/zipkin:3.5.1 (docker/zipkin/Dockerfile: the
# zipkin-server jar bench's build copies to bench/target/zipkin, for k8s/components/zipkin). The Kubernetes manifests
# name exactly these images (checked by ImageReferencesTest in container-tests).
# Usage: scripts/build-images.sh [--hey] [--postgres] [--zipkin] [--no-services] [--list]
#   --no-services  build only what --hey, --postgres and --zipkin ask for: no service image
#   --list         print the image names this script builds (all options included) and build nothing
# Needs: the jars (./mvnw -B package -DskipTests) and a Docker engine. Base images: eclipse-temurin:25-jre and
# debian:bookworm-slim, pulled by the engine, or made offline by docker/make-base-image.sh; --hey and --postgres
# also need Debian's package mirror.
set -euo pipefail
cd "$(dirname "$0")/.."

modules=(orders-service products-service accounts-service main-service)
hey_image=fanout-lab/hey:0.1.4
postgres_image=fanout-lab/postgres:15   # Debian bookworm's postgresql is 15 (docker/postgres/Dockerfile checks it)
zipkin_image=fanout-lab/zipkin:3.5.1    # the version of bench/pom.xml's zipkin-server.version
zipkin_jar=bench/target/zipkin/zipkin-server.jar
# the project's own version, from the root pom (the first <version> outside <parent>)
version=$(awk '/<parent>/,/<\/parent>/ {next} /<version>/ {gsub(/.*<version>|<\/version>.*/, ""); print; exit}' pom.xml)

with_hey=false with_postgres=false with_zipkin=false services=true list=false
for arg in "$@"; do
  case $arg in
    --hey) with_hey=true ;;
    --postgres) with_postgres=true ;;
    --zipkin) with_zipkin=true ;;
    --no-services) services=false ;;
    --list) list=true ;;
    *) echo "unknown option $arg; usage: $0 [--hey] [--postgres] [--zipkin] [--no-services] [--list]" >&2; exit 2 ;;
  esac
done

if $list; then
  for m in "${modules[@]}"; do echo "fanout-lab/$m:$version"; done
  echo "$hey_image"
  echo "$postgres_image"
  echo "$zipkin_image"
  exit 0
fi

command -v docker >/dev/null || { echo "docker not found: install Docker (https://docs.docker.com/get-docker/)" >&2; exit 1; }
docker version >/dev/null 2>&1 || { echo "no Docker engine answers (start Docker, or scripts/docker-engine.sh start)" >&2; exit 1; }
missing=()
if $services; then
  for m in "${modules[@]}"; do [[ -f $m/target/$m.jar ]] || missing+=("$m/target/$m.jar"); done
fi
if $with_zipkin && [[ ! -f $zipkin_jar ]]; then missing+=("$zipkin_jar"); fi
if (( ${#missing[@]} )); then
  echo "missing ${missing[*]}: build the jars first: ./mvnw -B package -DskipTests" >&2; exit 1
fi

# On a base made offline (docker/make-base-image.sh labels it) use the legacy builder: BuildKit would look the
# base up in a registry. Elsewhere the engine's default builder pulls the real eclipse-temurin:25-jre (and
# debian:bookworm-slim).
base=$(sed -n 's/^ARG BASE_IMAGE=//p' docker/Dockerfile)
if [[ $(docker image inspect -f '{{index .Config.Labels "lab.fanout.offline-base"}}' "$base" 2>/dev/null) == true ]]; then
  export DOCKER_BUILDKIT=0
fi

build() {   # build IMAGE ARGS...: quiet unless it fails
  local image=$1 start=$SECONDS log
  shift
  log=$(docker build -t "$image" "$@" 2>&1) || { echo "$log" >&2; echo "docker build of $image failed" >&2; exit 1; }
  echo "built $image ($((SECONDS - start)) s)"
}
if $services; then
  for m in "${modules[@]}"; do
    build "fanout-lab/$m:$version" -f docker/Dockerfile --build-arg MODULE="$m" "$m/target"
  done
fi
if $with_hey; then
  build "$hey_image" docker/hey
fi
if $with_postgres; then
  build "$postgres_image" docker/postgres
fi
if $with_zipkin; then
  build "$zipkin_image" -f docker/zipkin/Dockerfile bench/target/zipkin
fi
docker image prune -f --filter label=lab.fanout.stage=layers >/dev/null
