package lab.fanout.bench.run;

import java.util.List;
import java.util.Map;

import lab.fanout.bench.model.Cell;
import lab.fanout.bench.system.ServiceInfo;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** gh-13 part 4: which cells a running ./lab up can serve, judged by what its main-service reports. */
class UpTargetTest {

    /** A plain ./lab up: virtual, every knob at main-service's default, no JVM option. */
    static final ServiceInfo PLAIN_UP = ServiceInfo.parse("""
            {"knobs": {"runtime": {"profiles": ["virtual"], "tomcatThreadsMax": 200, "commonPoolParallelism": 1,
                                   "jvmInputArguments": ["--enable-preview"]},
                       "fanout": {"pool": {"maxTotal": 500, "maxPerRoute": 167}}}}""");

    static Cell cell(String profile, Integer threads, Integer pool, List<String> jvm, int latencyMs) {
        return Cell.custom().profile(profile).tomcatThreads(threads).poolSize(pool).jvmOptions(jvm).latencyMs(latencyMs)
                .durationSeconds(4).warmupSeconds(3).build();
    }

    @Test
    void aCellWithTheDefaultKnobsRunsOnAPlainUpWhateverItsLatency() {
        // the latency travels as the latencyMs query parameter, as with --base-url
        assertThat(UpTarget.mismatch(cell("virtual", null, null, List.of(), 50), PLAIN_UP, List.of(), Map.of()))
                .isEmpty();
        assertThat(UpTarget.mismatch(cell("virtual", 200, null, List.of(), 200), PLAIN_UP, List.of(), Map.of()))
                .isEmpty();
    }

    @Test
    void everyOtherKnobIsAMismatchNamingBothValues() {
        assertThat(UpTarget.mismatch(cell("platform", null, null, List.of(), 200), PLAIN_UP, List.of(), Map.of()))
                .hasValue("profile platform (./lab up runs virtual)");
        // an explicit pool of 500 sets 500 per route too: not the default's 167
        assertThat(UpTarget.mismatch(cell("virtual", null, 500, List.of(), 200), PLAIN_UP, List.of(), Map.of()))
                .hasValue("pool 500/500 total/per route (./lab up: 500/167)");
        assertThat(UpTarget.mismatch(cell("virtual", 10, null, List.of(), 200), PLAIN_UP, List.of(), Map.of()))
                .hasValue("Tomcat threads 10 (./lab up: 200)");
        assertThat(UpTarget.mismatch(cell("virtual", null, null, List.of("-Dx=1"), 200), PLAIN_UP, List.of(), Map.of()))
                .hasValueSatisfying(why -> assertThat(why).startsWith("JVM options [").contains("-Dx=1]"));
        assertThat(UpTarget.mismatch(cell("virtual", null, null, List.of(), 200), PLAIN_UP, List.of(),
                        Map.of("fanout.deadline", "2s")))
                .hasValueSatisfying(why -> assertThat(why).startsWith("main-service properties {fanout.deadline=2s}"));
    }

    @Test
    void aCellOnPostgresNeedsTheHarnessesOwnServices() {
        Cell db = Cell.custom().dbPool(5).durationSeconds(4).warmupSeconds(3).build();
        assertThat(UpTarget.dbMismatch(db, null)).hasValue("orders-service on PostgreSQL with a JDBC pool of 5"
                + " (the harness starts it for each db pool)");
        Cell tuned = Cell.custom().ordersJvmOptions(List.of("-Xmx1g")).durationSeconds(4).warmupSeconds(3).build();
        assertThat(UpTarget.dbMismatch(tuned, null)).hasValue("orders-service with JVM options [-Xmx1g] (the harness"
                + " starts it with them)");
        assertThat(UpTarget.dbMismatch(db, 5)).isPresent();   // ./lab up's pool has a 1 s connection timeout
        // a memory-store cell runs on ./lab up's services only where its orders-service has no JDBC pool
        Cell memory = cell("virtual", null, null, List.of(), 200);
        assertThat(UpTarget.dbMismatch(memory, null)).isEmpty();
        assertThat(UpTarget.dbMismatch(memory, 4)).hasValue("orders-service on its memory store (./lab up's runs on"
                + " PostgreSQL with a JDBC pool of 4)");
    }

    @Test
    void anUpThatRefusesPerRequestKnobsCannotTakeTheLatencyAsAQueryParameter() {
        ServiceInfo shared = ServiceInfo.parse("""
                {"knobs": {"runtime": {"profiles": ["virtual"], "tomcatThreadsMax": 200, "jvmInputArguments": []},
                           "fanout": {"pool": {"maxTotal": 500, "maxPerRoute": 167}},
                           "simulation": {"requestKnobs": false}}}""");
        assertThat(UpTarget.mismatch(cell("virtual", null, null, List.of(), 200), shared, List.of(), Map.of()))
                .hasValueSatisfying(why -> assertThat(why).contains("simulation.request-knobs=false"));
    }

    @Test
    void jvmOptionsMatchWhenUpWasStartedWithTheSameOnes() {
        ServiceInfo tuned = ServiceInfo.parse("""
                {"knobs": {"runtime": {"profiles": ["virtual"], "tomcatThreadsMax": 200,
                                       "jvmInputArguments": ["--enable-preview", "-Dp=8"]},
                           "fanout": {"pool": {"maxTotal": 500, "maxPerRoute": 167}}}}""");
        // JAVA_TOOL_OPTIONS would lead both lists: only meaningful without it
        org.junit.jupiter.api.Assumptions.assumeTrue(System.getenv("JAVA_TOOL_OPTIONS") == null,
                "JAVA_TOOL_OPTIONS is set");
        assertThat(UpTarget.mismatch(cell("virtual", null, null, List.of("-Dp=8"), 200), tuned, List.of(), Map.of()))
                .isEmpty();
        assertThat(UpTarget.mismatch(cell("virtual", null, null, List.of(), 200), tuned, List.of("-Dp=8"), Map.of()))
                .isEmpty();
        assertThat(UpTarget.mismatch(cell("virtual", null, null, List.of(), 200), tuned, List.of(), Map.of()))
                .isPresent();
    }
}
