package lab.fanout.bench.matrix;

import java.util.List;

/**
 * What {@code ./lab bench} runs: blocks (one table each) of cells.
 *
 * @param name   the preset's or file's name, for the report
 * @param blocks in run order
 */
public record Matrix(String name, List<Block> blocks) {

    public List<Cell> cells() {
        return blocks.stream().flatMap(b -> b.cells().stream()).toList();
    }
}
