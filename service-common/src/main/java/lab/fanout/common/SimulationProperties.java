package lab.fanout.common;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Whether a caller may set the {@link Simulation} knobs per request. The lab needs them ({@code ./lab up}, the
 * benchmark, the fault presets); a deployment that other people can reach does not: anyone could hold every pooled
 * connection with {@code latencyMs=60000} (about 33 req/s of it fill a 500-connection pool for the 5 s response
 * timeout). Profile {@code shared} switches them off (service-defaults.yml).
 *
 * @param requestKnobs true (default): honour the knobs; false: a request that sends any of them gets 403
 *                     problem+json ({@link RequestKnobsDisabledException}), the configured defaults still apply
 */
@ConfigurationProperties("simulation")
public record SimulationProperties(@DefaultValue("true") boolean requestKnobs) implements Knobs {
}
