package lab.fanout.bench.matrix;

import java.util.List;
import java.util.Map;

import lab.fanout.bench.model.Cell;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The soak preset: the seed's 1,200 clients and 10,000 clients, 60 s each, both profiles, with raised timeouts. */
class SoakPresetTest {

    @Test
    void soakRunsBothClientCountsUnderBothProfilesForAMinute() {
        Matrix soak = MatrixFile.preset("soak");

        assertThat(soak.cells()).hasSize(4).allMatch(c -> c.durationSeconds() >= 60 && c.timeoutSeconds() >= 150);
        assertThat(soak.cells()).extracting(Cell::concurrency).containsExactlyInAnyOrder(1200, 1200, 10_000, 10_000);
        assertThat(soak.cells()).extracting(Cell::profile)
                .containsExactlyInAnyOrder("virtual", "platform", "virtual", "platform");
        assertThat(soak.mainProperties()).containsEntry("fanout.deadline", "150s")
                .containsEntry("fanout.pool.acquire-timeout", "150s").containsEntry("fanout.response-timeout", "30s");
    }

    @Test
    void mainPropertiesAreOptionalAndReadFromTheTopLevel() {
        String yaml = """
                mainProperties:
                  fanout.deadline: 20s
                blocks:
                  - name: one
                    strategies: [scope]
                    profiles: [virtual]
                    concurrencies: [10]
                    latenciesMs: [0]
                    requests: 10
                """;
        assertThat(MatrixFile.yaml("x", yaml, "x.yaml").mainProperties()).isEqualTo(Map.of("fanout.deadline", "20s"));
        assertThat(MatrixFile.yaml("x", yaml.substring(yaml.indexOf("blocks:")), "x.yaml").mainProperties()).isEmpty();
        assertThat(new Matrix("m", List.of(), null).mainProperties()).isEmpty();
    }
}
