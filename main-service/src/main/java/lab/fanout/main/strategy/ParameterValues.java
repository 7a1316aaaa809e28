package lab.fanout.main.strategy;

import java.util.Arrays;

/** The one parser of the request knobs whose values are an enum's ({@code pinning=}, {@code onDeadline=}, ...). */
final class ParameterValues {

    private ParameterValues() {
    }

    /**
     * @param type  an enum whose {@code toString()} is its parameter value
     * @param value the request's value; case-insensitive
     * @throws IllegalArgumentException naming the valid values, if none matches
     */
    static <E extends Enum<E>> E parse(Class<E> type, String value) {
        E[] all = type.getEnumConstants();
        return Arrays.stream(all).filter(e -> e.toString().equalsIgnoreCase(value)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("'" + value + "' is not one of "
                        + Arrays.toString(all)));
    }
}
