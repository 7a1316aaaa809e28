#!/usr/bin/env bash
# Makes the base images locally, for machines that cannot pull images (CI, the lab machines):
#   debian:bookworm-slim     a Debian bookworm minbase root filesystem (debootstrap), for docker/hey/Dockerfile
#   eclipse-temurin:25-jre   the same plus a jlinked Temurin 25 where the real image has it (/opt/java/openjdk,
#                            on PATH), for docker/Dockerfile
# Both are labelled lab.fanout.offline-base=true. The Dockerfiles then build unchanged and pull nothing.
# On a laptop that can pull, skip this script: `docker build` fetches the real images.
# Usage: docker/make-base-image.sh [--force]    (does nothing when the images already exist, unless --force)
# Needs: a running Docker engine (scripts/docker-engine.sh start), root, debootstrap (installed if missing),
# a Temurin 25 JDK at $TEMURIN_25_HOME (default /usr/lib/jvm/temurin-25-jdk-amd64).
set -euo pipefail

image=eclipse-temurin:25-jre
debian_image=debian:bookworm-slim
jdk=${TEMURIN_25_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}

if [[ ${1:-} != --force ]] && docker image inspect "$image" "$debian_image" >/dev/null 2>&1; then
  echo "$image and $debian_image already exist locally (--force makes them again)"; exit 0
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
tar -C "$work/rootfs" -c . | docker import -c 'LABEL lab.fanout.offline-base=true' -c 'CMD ["bash"]' - "$debian_image" >/dev/null
echo "jlink Temurin 25 runtime ..."
# Every module of the JDK but jlink itself, like the real JRE image (the services need java.desktop for
# java.beans, java.management, jdk.management, java.naming, java.sql, jdk.unsupported, ...). Temurin 25 ships no
# jmods: jlink links from the run-time image (JEP 493), which cannot include jdk.jlink (nor jdk.jpackage, which needs it).
modules=$("$jdk/bin/java" --list-modules | sed 's/@.*//' | grep -vxE "jdk.jlink|jdk.jpackage|jdk.incubator.vector" | paste -sd, -)
"$jdk/bin/jlink" --add-modules "$modules" --strip-debug --no-man-pages --no-header-files \
  --compress=zip-6 --output "$work/rootfs/opt/java/openjdk"
tar -C "$work/rootfs" -c . | docker import \
  -c 'ENV JAVA_HOME=/opt/java/openjdk' \
  -c 'ENV PATH=/opt/java/openjdk/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  -c 'ENV LANG=C.UTF-8' \
  -c 'LABEL lab.fanout.offline-base=true' \
  -c 'CMD ["java", "-version"]' \
  - "$image" >/dev/null
docker run --rm "$image" java -version 2>&1 | sed -n 1p   # sed, not head: no SIGPIPE under pipefail
echo "made $debian_image and $image locally"
