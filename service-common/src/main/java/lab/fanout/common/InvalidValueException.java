package lab.fanout.common;

/**
 * Thrown by a request-parameter converter for a value it cannot take. Its message says what is valid, e.g.
 * {@code must be a whole number of milliseconds from 0 to 60000, or p95}; {@link ProblemAdvice} answers 400
 * {@code bad-parameter} with {@code <parameter>: <message> (got '<value>')}.
 */
public class InvalidValueException extends IllegalArgumentException {

    /** @param valid what the parameter takes, phrased to follow its name and a colon */
    public InvalidValueException(String valid) {
        super(valid);
    }
}
