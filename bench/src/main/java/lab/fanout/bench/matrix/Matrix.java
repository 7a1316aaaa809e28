package lab.fanout.bench.matrix;

import java.util.List;
import java.util.Map;

/**
 * What {@code ./lab bench} runs: blocks (one table each) of cells.
 *
 * @param name           the preset's or file's name, for the report
 * @param blocks         in run order
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

    public List<Cell> cells() {
        return blocks.stream().flatMap(b -> b.cells().stream()).toList();
    }
}
