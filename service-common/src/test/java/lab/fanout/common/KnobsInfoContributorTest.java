package lab.fanout.common;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The runtime half of {@code knobs}: what the JVM runs with, as a -D or -XX option would change it (gh-13 part 3). */
class KnobsInfoContributorTest {

    @Test
    @SuppressWarnings("unchecked")
    void showsTheVirtualThreadSchedulerTheCollectorAndTheHeap() {
        var contributor = new KnobsInfoContributor(new MockEnvironment(), List.of(), JsonMapper.builder().build());

        Map<String, Object> runtime = (Map<String, Object>) contributor.knobs().get("runtime");

        // the JDK's rule: jdk.virtualThreadScheduler.parallelism, else one carrier per available processor
        assertThat(runtime).containsEntry("carrierParallelism", Integer.getInteger(
                "jdk.virtualThreadScheduler.parallelism", Runtime.getRuntime().availableProcessors()));
        assertThat((List<String>) runtime.get("garbageCollectors")).isNotEmpty();
        assertThat(runtime).containsKeys("carrierMaxPoolSize", "carrierMinRunnable", "commonPoolParallelism", "maxHeapBytes");
        assertThat(runtime).containsEntry("pollerMode", PollerMode.effective().name());
        // this very JVM's options: surefire's argLine sets --enable-preview
        assertThat((List<String>) runtime.get("jvmInputArguments"))
                .containsExactlyElementsOf(java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments())
                .contains("--enable-preview");
    }

    @Test
    void carrierMaxPoolSizeDefaultsToTheJdksRule() {
        assumeTrue(System.getProperty("jdk.virtualThreadScheduler.maxPoolSize") == null,
                "skipped: this JVM sets jdk.virtualThreadScheduler.maxPoolSize, so the default does not apply");
        assertThat(KnobsInfoContributor.carrierMaxPoolSize(2)).isEqualTo(256);
        assertThat(KnobsInfoContributor.carrierMaxPoolSize(300)).isEqualTo(300);
    }

    @Test
    void carrierMinRunnableDefaultsToHalfTheCarriers() {
        assumeTrue(System.getProperty("jdk.virtualThreadScheduler.minRunnable") == null,
                "skipped: this JVM sets jdk.virtualThreadScheduler.minRunnable, so the default does not apply");
        assertThat(KnobsInfoContributor.carrierMinRunnable(1)).isEqualTo(1);
        assertThat(KnobsInfoContributor.carrierMinRunnable(8)).isEqualTo(4);
    }

    /** As JDK 25 reads {@code jdk.pollerMode} (sun.nio.ch.Poller), the default from its providers (gh-23 item 5). */
    @Test
    void pollerModeIsReadAsTheJdkReadsIt() {
        assertThat(PollerMode.of(null, "Linux")).isEqualTo(PollerMode.VTHREAD_POLLERS);
        assertThat(PollerMode.of(null, "Mac OS X")).isEqualTo(PollerMode.SYSTEM_THREADS);
        assertThat(PollerMode.of("1", "Linux")).isEqualTo(PollerMode.SYSTEM_THREADS);
        assertThat(PollerMode.of("system_threads", "Linux")).isEqualTo(PollerMode.SYSTEM_THREADS);
        assertThat(PollerMode.of("2", "Windows 11")).isEqualTo(PollerMode.VTHREAD_POLLERS);
        assertThatIllegalArgumentException().isThrownBy(() -> PollerMode.of("3", "Linux"))
                .withMessage("jdk.pollerMode: '3' is not 1, 2, SYSTEM_THREADS or VTHREAD_POLLERS");
    }
}
