package lab.fanout.bench.matrix;

import java.nio.file.Path;
import java.util.List;

import lab.fanout.bench.model.Strategy;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MatrixFileTest {

    @Test
    void presetsParse() {
        List<Cell> quick = MatrixFile.preset("quick").cells();
        assertThat(quick).hasSize(12).allMatch(c -> c.concurrency() == 100 && c.latencyMs() == 200 && c.repetitions() >= 3);
        assertThat(quick).extracting(Cell::strategy).containsOnly(Strategy.values());
        assertThat(MatrixFile.preset("seed").cells()).hasSize(16)
                .anyMatch(c -> c.poolSize() == 10 && c.concurrency() == 10 && c.requests() == 50);
        assertThat(MatrixFile.preset("scale").cells()).hasSize(48).anyMatch(c -> c.concurrency() == 5000)
                .extracting(Cell::strategy).containsOnly(Strategy.THREAD_PER_TASK, Strategy.VIRTUAL_THREAD_PER_TASK,
                        Strategy.REACTIVE);
        assertThatThrownBy(() -> MatrixFile.preset("fast"))
                .hasMessage("preset 'fast' is not one of [quick, seed, scale, soak, openclosed, faults]");
    }

    @Test
    void cellsAreOrderedForTheFewestRestarts() {
        List<Cell> cells = MatrixFile.preset("quick").cells();
        // all virtual cells first, then all platform ones: main-service restarts once
        assertThat(cells.subList(0, 6)).allMatch(c -> c.profile().equals("virtual"));
        assertThat(cells.subList(6, 12)).allMatch(c -> c.profile().equals("platform"));
    }

    @Test
    void exampleCsvParses() {
        Matrix m = MatrixFile.read(Path.of("matrices/example.csv"));
        assertThat(m.blocks()).extracting(Block::name).containsExactly("pool-size", "tomcat-threads");
        assertThat(m.blocks().getFirst().cells()).hasSize(8).allMatch(c -> c.tomcatThreads() == null);
        assertThat(m.blocks().get(1).cells()).extracting(Cell::tomcatThreads).contains(10, 50, 200);
    }

    @Test
    void otherExamplesParse() {
        assertThat(MatrixFile.read(Path.of("matrices/open-model.yaml")).cells()).allMatch(c -> c.ratePerSecond() != null);
    }

    @Test
    void yamlAcceptsSingleValuesForLists() {
        Matrix m = MatrixFile.yaml("t", """
                blocks:
                  - name: one
                    strategies: scope
                    profiles: virtual
                    concurrencies: 4
                    latenciesMs: 50
                    requests: 8
                """, "t.yaml");
        assertThat(m.cells()).singleElement().satisfies(c -> {
            assertThat(c.strategy()).isEqualTo(Strategy.SCOPE_FORK);
            assertThat(c.warmupSeconds()).isEqualTo(5);
            assertThat(c.repetitions()).isEqualTo(3);
            assertThat(c.timeoutSeconds()).isEqualTo(20);
        });
    }

    @Test
    void unknownKeyNamesLineAndValidKeys() {
        assertThatThrownBy(() -> MatrixFile.yaml("t", "blocks:\n  - name: x\n    poolSize: [3]\n", "t.yaml"))
                .hasMessageStartingWith("t.yaml, line 3: unknown key 'poolSize'; valid: [name, strategies, profiles");
    }

    @Test
    void badValuesNameBlockFieldAndValidValues() {
        String base = "blocks:\n  - name: b\n    profiles: [virtual]\n    concurrencies: [10]\n    latenciesMs: [50]\n";
        assertThatThrownBy(() -> MatrixFile.yaml("t", base + "    strategies: [loom]\n    requests: 10\n", "t.yaml"))
                .hasMessageContaining("block 'b': strategies: strategy 'loom' is not one of [sequential, completableFuture");
        assertThatThrownBy(() -> MatrixFile.yaml("t", base + "    strategies: [seq]\n", "t.yaml"))
                .hasMessageContaining("give either requests (per repetition) or durationSeconds");
        assertThatThrownBy(() -> MatrixFile.yaml("t", base + "    strategies: [seq]\n    requests: 5\n", "t.yaml"))
                .hasMessageContaining("requests must be >= every concurrency");
        assertThatThrownBy(() -> MatrixFile.yaml("t", base.replace("[virtual]", "[loom]") + "    strategies: [seq]\n    requests: 10\n", "t.yaml"))
                .hasMessageContaining("profiles must list virtual and/or platform, was [loom]");
        assertThatThrownBy(() -> MatrixFile.yaml("t", base.replace("[10]", "[ten]") + "    strategies: [seq]\n    requests: 10\n", "t.yaml"))
                .hasMessageContaining("near line").hasMessageContaining("blocks[0].concurrencies[0]");
        assertThatThrownBy(() -> MatrixFile.yaml("t", "blocks: []\n", "t.yaml")).hasMessageContaining("no blocks");
    }

    @Test
    void csvUnknownColumnAndBadRowAreNamed() {
        assertThatThrownBy(() -> MatrixFile.csv("t", "name,strategy\nx,seq\n", "t.csv"))
                .hasMessageContaining("unknown column(s) [strategy]");
        assertThatThrownBy(() -> MatrixFile.csv("t", "name,strategies,profiles,concurrencies,latenciesMs,requests\nx,seq,virtual,ten,50,10\n", "t.csv"))
                .hasMessageContaining("t.csv, line 2");
        assertThatThrownBy(() -> MatrixFile.read(Path.of("matrix.json"))).hasMessageContaining("cannot read matrix file");
    }
}
