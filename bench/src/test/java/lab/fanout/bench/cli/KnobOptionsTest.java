package lab.fanout.bench.cli;

import java.nio.file.Path;

import lab.fanout.bench.system.LocalSystem.LaunchSpec;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import static org.assertj.core.api.Assertions.assertThat;

/** Issue 27: ./lab up --breaker turns main-service's circuit breakers on, and says so in its knobs. */
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
}
