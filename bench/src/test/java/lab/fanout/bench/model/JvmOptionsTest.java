package lab.fanout.bench.model;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** main-service's JVM options (gh-13 part 3): -D, -X and -XX: only, one per value, with the fix in the message. */
class JvmOptionsTest {

    @Test
    void acceptsPropertiesAndXOptions() {
        List<String> ok = List.of("-Djava.util.concurrent.ForkJoinPool.common.parallelism=8", "-Dflag", "-Xmx512m",
                "-XX:+UseZGC", "-XX:ActiveProcessorCount=1");
        assertThat(JvmOptions.validated(ok)).isEqualTo(ok);
    }

    @Test
    void rejectsWhatIsNotAJvmOptionNamingTheFix() {
        assertThatThrownBy(() -> JvmOptions.validated(
                        List.of("java.util.concurrent.ForkJoinPool.common.parallelism=8")))
                .hasMessageContaining("is not a JVM option")
                .hasMessageContaining("--jvm-option=-Djava.util.concurrent.ForkJoinPool.common.parallelism=8");
        assertThatThrownBy(() -> JvmOptions.validated(List.of("--server.tomcat.threads.max=10")))
                .hasMessageContaining("use --main-property KEY=VALUE");
        assertThatThrownBy(() -> JvmOptions.validated(List.of("-jar"))).hasMessageContaining("-D<name>=<value>");
        assertThatThrownBy(() -> JvmOptions.validated(List.of("-D"))).hasMessageContaining("is not a JVM option");
        assertThatThrownBy(() -> JvmOptions.validated(List.of("-Da=1 -Db=2")))
                .hasMessageContaining("repeat --jvm-option");
        assertThatThrownBy(() -> JvmOptions.validated(List.of(" "))).hasMessageContaining("empty JVM option");
    }

    @Test
    void readsTheCommonPoolParallelismTheLastOptionSets() {
        assertThat(JvmOptions.commonPoolParallelism(List.of("-Djava.util.concurrent.ForkJoinPool.common.parallelism=2",
                "-Xmx1g", "-Djava.util.concurrent.ForkJoinPool.common.parallelism=16"))).hasValue(16);
        assertThat(JvmOptions.commonPoolParallelism(List.of("-Djdk.virtualThreadScheduler.parallelism=1"))).isEmpty();
    }

    @Test
    void tagsAreShortAndFileNameSafe() {
        assertThat(JvmOptions.tag(List.of("-Djava.util.concurrent.ForkJoinPool.common.parallelism=4")))
                .isEqualTo("common.parallelism4");
        assertThat(JvmOptions.tag(List.of("-Djdk.virtualThreadScheduler.parallelism=1",
                "-Djdk.virtualThreadScheduler.maxPoolSize=1", "-XX:+UseZGC", "-Xmx512m")))
                .isEqualTo("virtualThreadScheduler.parallelism1_virtualThreadScheduler.maxPoolSize1_UseZGC_Xmx512m");
        assertThat(JvmOptions.tag(List.of())).isEmpty();
    }

    @Test
    void chartLabelsNameTheSchedulerOnceAndKeepOtherOptions() {
        assertThat(JvmOptions.label(List.of("-Djdk.virtualThreadScheduler.parallelism=1",
                "-Djdk.virtualThreadScheduler.maxPoolSize=1", "-Djdk.virtualThreadScheduler.minRunnable=1")))
                .isEqualTo("carriers parallelism=1 maxPoolSize=1 minRunnable=1");
        assertThat(JvmOptions.label(List.of("-Djava.util.concurrent.ForkJoinPool.common.parallelism=4", "-XX:+UseZGC")))
                .isEqualTo("commonPool parallelism=4 -XX:+UseZGC");
        assertThat(JvmOptions.label(List.of("-Xmx1g", "-Djdk.virtualThreadScheduler.parallelism=2")))
                .isEqualTo("-Xmx1g carriers parallelism=2");
        assertThat(JvmOptions.label(List.of())).isEmpty();
    }

    @Test
    void nativeMemoryTrackingNeedsAFixedHeap() {
        assertThatThrownBy(() -> JvmOptions.validated(List.of("-XX:NativeMemoryTracking=summary", "-Xmx1g")))
                .hasMessageContaining("memory figures need a fixed heap").hasMessageContaining("-Xms1g -Xmx1g");
        assertThatThrownBy(() -> JvmOptions.validated(List.of("-Xms512m", "-Xmx1g",
                "-XX:NativeMemoryTracking=summary"))).hasMessageContaining("fixed heap");
        assertThat(JvmOptions.validated(List.of("-Xms1g", "-Xmx1g", "-XX:NativeMemoryTracking=summary"))).hasSize(3);
    }
}
