package lab.fanout.bench.cli;

import java.nio.file.Path;
import java.util.Map;

import lab.fanout.bench.system.LocalSystem.LaunchSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Issue 27: ./lab up --breaker turns main-service's circuit breakers on, and says so in its knobs; issue 37:
 * --admission and --max-in-flight reach main-service as its fanout.admission properties, --bounded-pool-threads and
 * --bounded-pool-queue as its fanout.bounded-pool ones.
 */
class KnobOptionsTest {

    private static KnobOptions parse(String... args) {
        Up up = new Up();
        new CommandLine(up).parseArgs(args);
        return up.knobs;
    }

    @Test
    void breakerSetsTheSpringPropertyAsASystemPropertyOfMainService() {
        KnobOptions knobs = parse("--breaker", "--jvm-option=-Dx=1");
        assertThat(knobs.apply(LaunchSpec.defaults(Path.of("."))).mainJvmArgs())
                .containsExactly("-Dx=1", "-Dfanout.breaker.enabled=true");
        assertThat(knobs.asArgs()).isEqualTo("--profile virtual --jvm-option=-Dx=1 --breaker");
        assertThat(knobs.anyGiven()).isTrue();
    }

    @Test
    void withoutItTheBreakersStayOff() {
        KnobOptions knobs = parse();
        assertThat(knobs.apply(LaunchSpec.defaults(Path.of("."))).mainJvmArgs()).isEmpty();
        assertThat(knobs.anyGiven()).isFalse();
    }

    /** Both PostgreSQL stores, JDBC and R2DBC, take the same database knobs. */
    @ParameterizedTest
    @ValueSource(strings = {"postgres", "r2dbc"})
    void anOrdersStoreOnPostgresReachesTheDownstreamsWithItsPoolUrlAndADataDirectoryUnderDotLab(String store) {
        KnobOptions knobs = parse("--orders-store", store, "--db-pool", "5");
        LaunchSpec spec = knobs.apply(LaunchSpec.defaults(Path.of("/repo")));
        assertThat(spec.extraDownstreamProperties()).containsExactlyInAnyOrderEntriesOf(Map.of("orders.store",
                store, "orders.db.pool-size", "5", "orders.db.data-dir", "/repo/.lab/orders-db"));
        assertThat(knobs.asArgs()).isEqualTo("--profile virtual --orders-store " + store + " --db-pool 5");
        assertThat(parse("--orders-store", store, "--db-url", "jdbc:postgresql://db:5432/lab")
                .apply(LaunchSpec.defaults(Path.of("."))).extraDownstreamProperties())
                .containsEntry("orders.store", store)
                .containsEntry("orders.db.url", "jdbc:postgresql://db:5432/lab")
                .doesNotContainKey("orders.db.data-dir");
        assertThatThrownBy(() -> parse("--orders-store", store, "--db-url",
                "jdbc:postgresql://db/lab?user=x&password=y").apply(LaunchSpec.defaults(Path.of("."))))
                .hasMessageContaining("must not hold a password");
    }

    @Test
    void theMemoryStoreIsTheDefaultAndAnUnknownStoreIsRefusedNamingTheValidOnes() {
        assertThat(parse().apply(LaunchSpec.defaults(Path.of("."))).extraDownstreamProperties()).isEmpty();
        assertThatThrownBy(() -> parse("--orders-store", "mongo")).isInstanceOf(CommandLine.ParameterException.class)
                .hasMessageContaining("memory, postgres, r2dbc");
    }

    @Test
    void aDatabaseKnobWithoutThePostgresStoreOrAPasswordInTheUrlIsRefusedWithTheFix() {
        assertThatThrownBy(() -> parse("--db-pool", "5").apply(LaunchSpec.defaults(Path.of("."))))
                .hasMessage("--db-pool and --db-url apply to --orders-store postgres or r2dbc");
        assertThatThrownBy(() -> parse("--orders-store", "postgres", "--db-url",
                "jdbc:postgresql://lab:secret@db:5432/lab").apply(LaunchSpec.defaults(Path.of("."))))
                .hasMessageContaining("export ORDERS_DB_USERNAME and ORDERS_DB_PASSWORD");
        assertThatThrownBy(() -> parse("--orders-store", "postgres", "--db-url",
                "jdbc:postgresql://db/lab?user=x&password=y").apply(LaunchSpec.defaults(Path.of("."))))
                .hasMessageContaining("must not hold a password");
        assertThatThrownBy(() -> parse("--orders-store", "postgres", "--db-pool", "0")
                .apply(LaunchSpec.defaults(Path.of(".")))).hasMessage("--db-pool must be in 1..1000, was 0");
    }

    @Test
    void admissionAndItsLimitReachMainServiceAsSystemProperties() {
        KnobOptions knobs = parse("--admission", "adaptive", "--max-in-flight", "300");
        assertThat(knobs.apply(LaunchSpec.defaults(Path.of("."))).mainJvmArgs())
                .containsExactly("-Dfanout.admission.mode=adaptive", "-Dfanout.admission.max-in-flight=300");
        assertThat(knobs.asArgs()).isEqualTo("--profile virtual --admission adaptive --max-in-flight 300");
        assertThat(parse("--admission", "off").apply(LaunchSpec.defaults(Path.of("."))).mainJvmArgs())
                .containsExactly("-Dfanout.admission.mode=off");
    }

    @Test
    void aLimitWithAdmissionOffOrBelowOneIsRefusedWithTheFix() {
        assertThatThrownBy(() -> parse("--admission", "off", "--max-in-flight", "10")
                .apply(LaunchSpec.defaults(Path.of(".")))).hasMessageContaining("off has none");
        assertThatThrownBy(() -> parse("--max-in-flight", "0").apply(LaunchSpec.defaults(Path.of("."))))
                .hasMessage("--max-in-flight must be 1 or more, was 0");
        assertThatThrownBy(() -> parse("--admission", "sometimes")).hasMessageContaining("off, fixed, adaptive");
    }

    /** Netty: main-service's third profile, with admission control; Tomcat's pool size is refused, not ignored. */
    @Test
    void nettyIsAProfileWithoutTomcatsPool() {
        assertThat(parse("--profile", "netty", "--admission", "adaptive").apply(LaunchSpec.defaults(Path.of(".")))
                .profile()).isEqualTo("netty");
        assertThatThrownBy(() -> parse("--profile", "netty", "--tomcat-threads", "10")
                .apply(LaunchSpec.defaults(Path.of("."))))
                .hasMessageStartingWith("--tomcat-threads sets Tomcat's pool");
    }

    @Test
    void theRefusalStatusReachesMainServiceAndAnotherStatusOrAdmissionOffIsRefusedWithTheFix() {
        KnobOptions knobs = parse("--refusal-status", "503");
        assertThat(knobs.apply(LaunchSpec.defaults(Path.of("."))).mainJvmArgs())
                .containsExactly("-Dfanout.admission.refusal-status=503");
        assertThat(knobs.asArgs()).isEqualTo("--profile virtual --refusal-status 503");
        assertThatThrownBy(() -> parse("--refusal-status", "500").apply(LaunchSpec.defaults(Path.of("."))))
                .hasMessage("--refusal-status must be 429 or 503, was 500");
        assertThatThrownBy(() -> parse("--admission", "off", "--refusal-status", "429")
                .apply(LaunchSpec.defaults(Path.of(".")))).hasMessageContaining("off refuses none");
    }

    @Test
    void theBoundedPoolsSizeReachesMainServiceAsSystemPropertiesAndOutOfRangeIsRefused() {
        KnobOptions knobs = parse("--bounded-pool-threads", "50", "--bounded-pool-queue", "100");
        assertThat(knobs.apply(LaunchSpec.defaults(Path.of("."))).mainJvmArgs())
                .containsExactly("-Dfanout.bounded-pool.threads=50", "-Dfanout.bounded-pool.queue=100");
        assertThat(knobs.asArgs()).isEqualTo("--profile virtual --bounded-pool-threads 50 --bounded-pool-queue 100");
        assertThatThrownBy(() -> parse("--bounded-pool-threads", "0").apply(LaunchSpec.defaults(Path.of("."))))
                .hasMessage("--bounded-pool-threads must be in 1..10000, was 0");
        assertThatThrownBy(() -> parse("--bounded-pool-queue", "100001").apply(LaunchSpec.defaults(Path.of("."))))
                .hasMessage("--bounded-pool-queue must be in 1..100000, was 100001");
    }
}
