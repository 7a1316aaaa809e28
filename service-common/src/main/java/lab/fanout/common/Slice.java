package lab.fanout.common;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One of {@code count} contiguous, nearly equal parts of a downstream's catalogue, by position: part {@code index}
 * holds the items from {@code index * size / count} (inclusive) to {@code (index + 1) * size / count} (exclusive),
 * so the parts in index order are the whole catalogue, each item exactly once. A part may be empty when
 * {@code count} exceeds the catalogue's size. The downstreams serve a part as
 * {@code GET {path}?slice=index&slices=count}; main-service's {@code width} fetches each downstream's catalogue in
 * {@code width} such parts.
 *
 * @param index which part, 0 .. count - 1
 * @param count how many parts, 1 .. {@value #MAX_COUNT}
 */
public record Slice(int index, int count) {

    /** The most parts a catalogue is cut into: main-service's largest {@code width}. */
    public static final int MAX_COUNT = 32;
    public static final String INDEX_PARAMETER = "slice";
    public static final String COUNT_PARAMETER = "slices";
    /** The whole catalogue: one part, sent without slice parameters. */
    public static final Slice WHOLE = new Slice(0, 1);

    /** @throws IllegalArgumentException naming the valid range, if count or index is outside it */
    public Slice {
        if (count < 1 || count > MAX_COUNT) {
            throw new IllegalArgumentException(COUNT_PARAMETER + ": must be between 1 and " + MAX_COUNT
                    + " (got '" + count + "')");
        }
        if (index < 0 || index >= count) {
            throw new IllegalArgumentException(INDEX_PARAMETER + ": must be between 0 and " + (count - 1)
                    + " for " + COUNT_PARAMETER + "=" + count + " (got '" + index + "')");
        }
    }

    /** @return the position of this part's first item in a catalogue of {@code size} items */
    public int from(int size) {
        return index * size / count;
    }

    /** @return the position after this part's last item in a catalogue of {@code size} items */
    public int to(int size) {
        return (index + 1) * size / count;
    }

    /** @return the query parameters that ask a downstream for this part; none for {@link #WHOLE} */
    public Map<String, Object> asQueryParameters() {
        Map<String, Object> parameters = new LinkedHashMap<>();
        if (count > 1) {
            parameters.put(INDEX_PARAMETER, index);
            parameters.put(COUNT_PARAMETER, count);
        }
        return parameters;
    }
}
