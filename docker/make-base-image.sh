#!/usr/bin/env bash
# Makes the base image `eclipse-temurin:25-jre` locally, for machines that cannot pull images (CI, the lab
# machines): a Debian bookworm minbase root filesystem (debootstrap) with a jlinked Temurin 25 at the path the
# real image uses (/opt/java/openjdk, on PATH). docker/Dockerfile then builds unchanged and pulls nothing.
# On a laptop that can pull, skip this script: `docker build` fetches the real eclipse-temurin:25-jre.
# Usage: docker/make-base-image.sh [--force]    (does nothing when the image already exists, unless --force)
# Needs: a running Docker engine (scripts/docker-engine.sh start), root, debootstrap (installed if missing),
# a Temurin 25 JDK at $TEMURIN_25_HOME (default /usr/lib/jvm/temurin-25-jdk-amd64).
set -euo pipefail

image=${BASE_IMAGE:-eclipse-temurin:25-jre}
jdk=${TEMURIN_25_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}

if [[ ${1:-} != --force ]] && docker image inspect "$image" >/dev/null 2>&1; then
  echo "$image already exists locally (--force rebuilds it)"; exit 0
fi
[[ -x $jdk/bin/jlink ]] || { echo "no JDK 25 at $jdk: set TEMURIN_25_HOME" >&2; exit 1; }
if ! command -v debootstrap >/dev/null; then
  echo "installing debootstrap (Debian) ..."
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends debootstrap >/dev/null
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "debootstrap bookworm (minbase) ..."
debootstrap --variant=minbase bookworm "$work/rootfs" >"$work/debootstrap.log" 2>&1 \
  || { tail -20 "$work/debootstrap.log" >&2; exit 1; }
rm -rf "$work"/rootfs/var/cache/apt/archives/*.deb "$work"/rootfs/var/lib/apt/lists/*
echo "jlink Temurin 25 runtime ..."
# Every module of the JDK but jlink itself, like the real JRE image (the services need java.desktop for
# java.beans, java.management, jdk.management, java.naming, java.sql, jdk.unsupported, ...). Temurin 25 ships no
# jmods: jlink links from the run-time image (JEP 493), which cannot include jdk.jlink.
modules=$("$jdk/bin/java" --list-modules | sed 's/@.*//' | grep -vx jdk.jlink | paste -sd, -)
"$jdk/bin/jlink" --add-modules "$modules" --strip-debug --no-man-pages --no-header-files \
  --compress=zip-6 --output "$work/rootfs/opt/java/openjdk"
tar -C "$work/rootfs" -c . | docker import \
  -c 'ENV JAVA_HOME=/opt/java/openjdk' \
  -c 'ENV PATH=/opt/java/openjdk/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  -c 'ENV LANG=C.UTF-8' \
  -c 'CMD ["java", "-version"]' \
  - "$image" >/dev/null
docker run --rm "$image" java -version 2>&1 | head -1
echo "made $image locally ($(docker image inspect -f '{{.Size}}' "$image" | awk '{printf "%d MB", $1/1e6}'))"
