package lab.fanout.bench.system;

import java.nio.file.Files;
import java.nio.file.Path;

import lab.fanout.bench.model.ServiceDefaults;
import lab.fanout.bench.system.AotCache.Mode;
import lab.fanout.bench.system.LocalSystem.LaunchSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AotCacheTest {

    @Test
    void aRebuiltJarMakesItsCacheStale(@TempDir Path repo) throws Exception {
        for (String s : ServiceDefaults.SERVICES) {
            Path jar = repo.resolve(s + "/target/" + s + ".jar");
            Files.createDirectories(jar.getParent());
            Files.writeString(jar, "jar of " + s);
        }
        assertThat(AotCache.trained(repo)).isFalse();
        for (String s : ServiceDefaults.SERVICES) {
            Path dir = Files.createDirectories(AotCache.dir(repo, s));
            Files.writeString(AotCache.cacheFile(dir, s), "cache");
        }
        assertThat(AotCache.trained(repo)).isTrue();

        Files.writeString(repo.resolve("main-service/target/main-service.jar"),
                "jar of main-service, rebuilt with a change");

        // the key follows the jar's content, so the cache of the old jar is no longer found
        assertThat(AotCache.trained(repo)).isFalse();
    }

    @Test
    void theKeyFollowsTheContentNotTheFile(@TempDir Path tmp) throws Exception {
        Path a = Files.writeString(tmp.resolve("a.jar"), "same bytes");
        Path b = Files.writeString(tmp.resolve("b.jar"), "same bytes");
        Path c = Files.writeString(tmp.resolve("c.jar"), "other bytes");

        assertThat(AotCache.key(a)).isEqualTo(AotCache.key(b)).hasSize(AotCache.KEY_LENGTH).matches("[0-9a-f]+");
        assertThat(AotCache.key(c)).isNotEqualTo(AotCache.key(a));
    }

    @Test
    void trainingWritesTheCacheAndLaterRunsMapItFromTheExtractedJar() {
        Path dir = Path.of("/repo/.lab/aot/orders-service-0123456789ab");
        Path log = Path.of("/logs/orders-service.aot.log");

        assertThat(AotCache.launch(Mode.TRAIN, dir, "orders-service", log)).containsExactly(
                "-XX:AOTCacheOutput=" + dir.resolve("orders-service.aot"),
                "-jar", dir.resolve("orders-service.jar").toString());
        assertThat(AotCache.launch(Mode.USE, dir, "orders-service", log)).containsExactly(
                "-XX:AOTCache=" + dir.resolve("orders-service.aot"), "-Xlog:aot=info:file=" + log,
                "-jar", dir.resolve("orders-service.jar").toString());
        assertThatThrownBy(() -> AotCache.launch(Mode.OFF, dir, "orders-service", log))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aMappedCacheIsNoProblem(@TempDir Path tmp) throws Exception {
        Path log = Files.writeString(tmp.resolve("a.aot.log"), """
                [0.010s][info][aot] trying to map /repo/.lab/aot/orders-service-0123456789ab/orders-service.aot
                [0.010s][info][aot] Opened AOT cache /repo/.lab/aot/orders-service-0123456789ab/orders-service.aot.
                [0.010s][info][aot] Mapped static  region #0 at base 0x0000000092001000 top 0x0000000093c48000 \
                (ReadWrite)
                """);

        assertThat(AotCache.loadProblem(log)).isEmpty();
    }

    @Test
    void aCacheTheJvmRefusedIsReportedWithItsReason(@TempDir Path tmp) throws Exception {
        // what JDK 25 logged here for a cache used with another jar than it was made with
        Path log = Files.writeString(tmp.resolve("b.aot.log"), """
                [0.037s][info][aot] trying to map /tmp/orders.aot
                [0.037s][warning][aot] This file is not the one used while building the shared archive file: \
                'orders-service.jar', size has changed
                [0.037s][error  ][aot] An error has occurred while processing the AOT cache. Run with -Xlog:aot for \
                details.
                [0.041s][error  ][aot] Unable to map shared spaces
                """);

        assertThat(AotCache.loadProblem(log)).hasValueSatisfying(p -> assertThat(p).contains("size has changed"));
        assertThat(AotCache.loadProblem(tmp.resolve("absent.aot.log")))
                .hasValueSatisfying(p -> assertThat(p).contains("no AOT log"));
        Path silent = Files.writeString(tmp.resolve("c.aot.log"),
                "[0.010s][info][aot] trying to map /tmp/orders.aot\n");
        assertThat(AotCache.loadProblem(silent)).hasValueSatisfying(p -> assertThat(p).contains("did not open"));
    }

    @Test
    void switchingTheCacheOnRestartsTheDownstreamsToo() {
        LaunchSpec plain = LaunchSpec.defaults(Path.of("."));

        assertThat(plain.aot()).isEqualTo(Mode.OFF);
        LaunchSpec cached = plain.toBuilder().aot(Mode.USE).build();
        assertThat(plain.sameDownstreams(cached)).isFalse();
        assertThat(cached.toBuilder().profile("platform").tomcatThreads(10).poolSize(10).build().aot())
                .isEqualTo(Mode.USE);
        assertThat(cached.toBuilder().freePorts(true).logDir(Path.of("logs")).build().aot()).isEqualTo(Mode.USE);
    }
}
