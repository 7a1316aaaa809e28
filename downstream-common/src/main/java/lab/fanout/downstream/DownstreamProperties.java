package lab.fanout.downstream;

import java.time.Duration;

import jakarta.validation.Valid;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;

import lab.fanout.common.Knobs;
import org.hibernate.validator.constraints.time.DurationMax;
import org.hibernate.validator.constraints.time.DurationMin;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.ConstructorBinding;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * What makes one downstream service different from another: its path, the I/O latency it simulates and the faults
 * it injects when the caller does not ask for any.
 *
 * @param path      where the catalogue is served, e.g. {@code /order/api/v1/orders} (the seed demo's paths); the
 *                  catalogue itself is {@code classpath:catalogue.json}, one item at {@code {path}/{id}}
 * @param latency   simulated I/O latency of every request when the caller does not send {@code latencyMs}
 *                  (default 200ms, as in the seed demo; at most 60s, like every time knob)
 * @param jitter    extra random latency, uniform in [0, jitter], when the caller does not send {@code jitterMs}
 * @param faults    faults injected when the caller sends no fault knobs (default none)
 */
@Validated
@ConfigurationProperties("downstream")
public record DownstreamProperties(@NotBlank String path,
                                   @NotNull @DurationMin(millis = 0) @DurationMax(seconds = 60) @DefaultValue("200ms")
                                   Duration latency,
                                   @NotNull @DurationMin(millis = 0) @DurationMax(seconds = 60) @DefaultValue("0ms")
                                   Duration jitter,
                                   @Valid @DefaultValue Faults faults) implements Knobs {

    @ConstructorBinding
    public DownstreamProperties {
    }

    /** Shorthand without configured faults. */
    public DownstreamProperties(String path, Duration latency, Duration jitter) {
        this(path, latency, jitter, Faults.NONE);
    }

    /**
     * The configured faults ({@code downstream.faults.*}); each per-request knob of the same name
     * ({@link lab.fanout.common.Simulation}) overrides one of them. Same limits as the knobs.
     *
     * @param errorRate   probability, 0..1, of answering {@code errorStatus} (default 0)
     * @param errorStatus status of an injected error, 400..599 (default 500)
     * @param tailRate    probability, 0..1, of adding {@code tail} to the latency (default 0)
     * @param tail        the long tail's extra latency, at most 60s (default 0)
     * @param closeRate   probability, 0..1, of closing the connection without a response (default 0)
     * @param dribble     time over which the body is spread, at most 60s (default 0: sent at once)
     */
    public record Faults(@DecimalMin("0") @DecimalMax("1") @DefaultValue("0") double errorRate,
                         @Min(400) @Max(599) @DefaultValue("500") int errorStatus,
                         @DecimalMin("0") @DecimalMax("1") @DefaultValue("0") double tailRate,
                         @NotNull @DurationMin(millis = 0) @DurationMax(seconds = 60) @DefaultValue("0ms")
                         Duration tail,
                         @DecimalMin("0") @DecimalMax("1") @DefaultValue("0") double closeRate,
                         @NotNull @DurationMin(millis = 0) @DurationMax(seconds = 60) @DefaultValue("0ms")
                         Duration dribble) {

        public static final Faults NONE = new Faults(0, 500, 0, Duration.ZERO, 0, Duration.ZERO);
    }
}
