package lab.fanout.bench.matrix;

import java.util.Comparator;
import java.util.List;
import java.util.Map;

import lab.fanout.bench.model.Cell;
import lab.fanout.bench.model.ServiceDefaults;

/**
 * What {@code ./lab bench} runs: blocks (one table each) of cells.
 *
 * @param name           the preset's or file's name, for the report
 * @param mainProperties Spring properties for the main-service the harness starts, in every cell (a YAML matrix's
 *                       {@code mainProperties:}); {@code --main-property} overrides them
 * @param mainCpus       main-service's CPU placement for the whole run as {@code --main-cpus} takes it (a YAML
 *                       matrix's {@code mainCpus:}, e.g. {@code "0.5"}); null: {@code all}; {@code --main-cpus}
 *                       overrides it
 */
public record Matrix(String name, List<Block> blocks, Map<String, String> mainProperties, String mainCpus) {

    public Matrix {
        mainProperties = mainProperties == null ? Map.of() : Map.copyOf(mainProperties);
    }

    /** Without a placement of its own. */
    public Matrix(String name, List<Block> blocks, Map<String, String> mainProperties) {
        this(name, blocks, mainProperties, null);
    }

    /**
     * @return every block's cells, grouped by latency, CPU placement, db pool and driver (all four services restart;
     *         the memory store first, JDBC before R2DBC), then profile (main-service restarts) across blocks, so that
     *         a restart and its cold JIT happen once per group; a stable sort
     */
    public List<Cell> cells() {
        return blocks.stream().flatMap(b -> b.cells().stream()).sorted(Comparator.comparingInt(Cell::latencyMs)
                .thenComparing(Cell::mainCpus, Comparator.nullsFirst(Comparator.naturalOrder()))
                .thenComparing(Cell::dbPool, Comparator.nullsFirst(Comparator.naturalOrder()))
                .thenComparing(Cell::ordersStore, Comparator.nullsFirst(Comparator.naturalOrder()))
                .thenComparingInt(c -> ServiceDefaults.PROFILES.indexOf(c.profile()))).toList();
    }
}
