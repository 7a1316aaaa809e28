package lab.fanout.bench.report;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A GitHub-flavoured markdown table, the one writer of every table the lab prints (results.md, compare, verdicts, the
 * overload and faults presets): a header row, its alignment row, then a row per {@link #row}; cells as given (the
 * caller formats them; no escaping of {@code |}).
 */
public final class MarkdownTable {

    /** Alignment markers: text left, figures right, or left to the renderer (it aligns left). */
    public static final String LEFT = ":---";
    public static final String RIGHT = "---:";
    public static final String DEFAULT = "---";

    private final StringBuilder md;
    private final int columns;
    private int rows;

    /** @throws IllegalArgumentException when the header and its alignment markers differ in number */
    public MarkdownTable(List<String> header, List<String> align) {
        if (header.size() != align.size()) {
            throw new IllegalArgumentException(header.size() + " columns but " + align.size() + " alignments");
        }
        columns = header.size();
        md = new StringBuilder(line(header)).append("\n|").append(String.join("|", align)).append("|\n");
    }

    /** @return {@code first} for the first {@code n} columns of {@code total}, {@code rest} for the others */
    public static List<String> align(int n, String first, String rest, int total) {
        List<String> align = new ArrayList<>(Collections.nCopies(n, first));
        align.addAll(Collections.nCopies(total - n, rest));
        return align;
    }

    /** @throws IllegalArgumentException when the row has another number of cells than the header */
    public MarkdownTable row(List<String> cells) {
        if (cells.size() != columns) {
            throw new IllegalArgumentException(cells.size() + " cells in a table of " + columns + " columns: " + cells);
        }
        md.append(line(cells)).append('\n');
        rows++;
        return this;
    }

    public boolean isEmpty() {
        return rows == 0;
    }

    /** @return the table, every line ending in a newline */
    @Override
    public String toString() {
        return md.toString();
    }

    /** @return one row of a table: {@code | a | b |}, no newline */
    public static String line(List<String> cells) {
        return "| " + String.join(" | ", cells) + " |";
    }
}
