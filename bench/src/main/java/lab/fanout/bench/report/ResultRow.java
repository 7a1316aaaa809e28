package lab.fanout.bench.report;

import java.util.Map;

/**
 * One repetition of a result as results.csv's columns, computed from the typed cells ({@link ResultsCsv#rows}), so
 * that {@code ./lab compare} and {@code ./lab verdicts} read the model and the CSV stays a write-only view of it.
 * Absent figures are absent (never 0), numbers as the CSV writes them.
 *
 * @param columns column name to value; a column a cell has no value for maps to ""
 */
record ResultRow(Map<String, String> columns) {

    ResultRow {
        columns = Map.copyOf(columns);
    }

    /** @throws IllegalArgumentException naming the column when the row has no such column */
    String get(String column) {
        String value = columns.get(column);
        if (value == null) {
            throw new IllegalArgumentException("a result row has no column " + column);
        }
        return value;
    }
}
