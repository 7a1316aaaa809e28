package lab.fanout.common;

import org.springframework.http.HttpStatus;
import org.springframework.web.ErrorResponseException;

/**
 * 400 problem+json {@code bad-parameter} for what a constraint annotation cannot say: a parameter valid alone but not
 * with another (e.g. {@code slice} beyond {@code slices}). The detail names the parameter and what is valid, as
 * {@link ProblemAdvice}'s do.
 */
public class BadParameterException extends ErrorResponseException {

    /** @param detail e.g. {@code slice: must be between 0 and 3 for slices=4 (got '4')} */
    public BadParameterException(String detail) {
        super(HttpStatus.BAD_REQUEST, Problems.of(HttpStatus.BAD_REQUEST, Problems.BAD_PARAMETER, "Bad parameter", detail),
                null);
    }
}
