#!/usr/bin/env bash
# Does Native Memory Tracking see Reactor Netty's direct buffers? (docs/results.md, "On Reactor Netty": the off-heap
# figure). Runs Netty's own default allocator, from main-service's jar, in a JVM of the lab's JDK with NMT on: it
# allocates 64 MiB of direct buffers and prints how Netty allocates them on this JDK, then NMT's "Other" category,
# which the footprint snapshot reads. On 2026-11-29 (Netty 4.2.18, JDK 25.0.3): hasUnsafe=false,
# directBufferPreferred=true, AdaptiveByteBufAllocator(directByDefault: true), Other committed=65,611-65,739 KB in two runs.
# Usage, from the repository's root after a build: docs/results/footprint-netty-direct-probe-20261129.sh
set -euo pipefail
java_home=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
dir=$(mktemp -d)
trap 'kill "${pid:-}" 2>/dev/null || true; rm -rf "$dir"' EXIT
for jar in netty-common netty-buffer; do
  unzip -q -j main-service/target/main-service.jar "BOOT-INF/lib/$jar-*.jar" -d "$dir"
done
cat > "$dir/Probe.java" <<'JAVA'
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.util.internal.PlatformDependent;

public class Probe {
    public static void main(String[] a) throws Exception {
        var keep = new java.util.ArrayList<ByteBuf>();
        for (int i = 0; i < 64; i++) {
            keep.add(ByteBufAllocator.DEFAULT.ioBuffer(1 << 20));
        }
        System.out.println("hasUnsafe=" + PlatformDependent.hasUnsafe() + " directBufferPreferred="
                + PlatformDependent.directBufferPreferred() + " allocator=" + ByteBufAllocator.DEFAULT
                + " ioBuffer direct=" + keep.getFirst().isDirect() + " held=" + keep.size() + " MiB");
        Thread.sleep(60_000);
    }
}
JAVA
"$java_home/bin/java" -XX:NativeMemoryTracking=summary -cp "$dir/*" "$dir/Probe.java" > "$dir/out.txt" &
pid=$!
until [[ -s "$dir/out.txt" ]]; do sleep 0.5; done
cat "$dir/out.txt"
"$java_home/bin/jcmd" "$pid" VM.native_memory summary scale=KB | grep -A1 -- "- *Other"
