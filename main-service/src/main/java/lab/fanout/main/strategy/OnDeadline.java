package lab.fanout.main.strategy;

/**
 * What a request does when its deadline runs out before every call has answered: the query parameter
 * {@code onDeadline} (docs/knobs.md). {@link #toString()} is the parameter value.
 */
public enum OnDeadline {

    /** 504 {@code deadline-exceeded}, whatever came back: the default. */
    FAIL("fail"),
    /**
     * 200 with the catalogues that arrived, the late calls cancelled, and {@code X-Fanout-Missing} naming the
     * downstreams that did not answer in time ({@link Fetched#missing()}); each strategy does it in its own idiom.
     */
    PARTIAL("partial");

    private final String parameterValue;

    OnDeadline(String parameterValue) {
        this.parameterValue = parameterValue;
    }

    /**
     * @param value {@code fail} or {@code partial}; case-insensitive
     * @throws IllegalArgumentException naming the valid values, if none matches
     */
    public static OnDeadline fromParameter(String value) {
        return ParameterValues.parse(OnDeadline.class, value);
    }

    @Override
    public String toString() {
        return parameterValue;
    }
}
