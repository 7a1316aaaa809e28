package lab.fanout.common;

import java.net.URI;
import java.util.List;

import org.springframework.http.HttpStatus;
import org.springframework.web.ErrorResponseException;

/** 403 problem+json: the request sent simulation knobs to a service where {@link SimulationProperties} disables them. */
public class RequestKnobsDisabledException extends ErrorResponseException {

    /** The problem type, documented in docs/knobs.md, "Errors". */
    public static final URI TYPE = Problems.type("request-knobs-disabled");

    /** @param given the knob names the request sent, e.g. {@code [latencyMs]} */
    RequestKnobsDisabledException(List<String> given) {
        super(HttpStatus.FORBIDDEN, Problems.of(HttpStatus.FORBIDDEN, TYPE, "Request knobs disabled",
                given + ": per-request simulation knobs are switched off on this deployment; they work where "
                        + "simulation.request-knobs=true (the lab's default; profile 'shared' sets it false). "
                        + "Send the request without them."), null);
    }
}
