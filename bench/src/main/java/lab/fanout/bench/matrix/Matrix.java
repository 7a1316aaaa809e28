package lab.fanout.bench.matrix;

import java.util.Comparator;
import java.util.List;
import java.util.Map;

import lab.fanout.bench.model.Cell;

/**
 * What {@code ./lab bench} runs: blocks (one table each) of cells.
 *
 * @param name           the preset's or file's name, for the report
 * @param blocks         in table order; {@link #cells()} gives the run order
 * @param mainProperties Spring properties for the main-service the harness starts, for every cell (a YAML matrix's
 *                       top-level {@code mainProperties:}); {@code --main-property} overrides them
 */
public record Matrix(String name, List<Block> blocks, Map<String, String> mainProperties) {

    public Matrix {
        mainProperties = mainProperties == null ? Map.of() : Map.copyOf(mainProperties);
    }

    public Matrix(String name, List<Block> blocks) {
        this(name, blocks, Map.of());
    }

    /**
     * @return every block's cells ({@link Block#cells()}), run grouped by latency (all four services restart) and
     * then profile (main-service restarts) across blocks, so that a restart, and the cold JIT after it, happens once
     * per group, not once per block; within a group the blocks keep their order (a stable sort)
     */
    public List<Cell> cells() {
        return blocks.stream().flatMap(b -> b.cells().stream())
                .sorted(Comparator.comparingInt(Cell::latencyMs).thenComparingInt(c -> Block.PROFILES.indexOf(c.profile())))
                .toList();
    }
}
