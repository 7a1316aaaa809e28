package lab.fanout.downstream;

import java.time.Duration;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;

import lab.fanout.common.Knobs;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * What makes one downstream service different from another: its path and the I/O latency it simulates.
 *
 * @param path      where the catalogue is served, e.g. {@code /order/api/v1/orders} (the seed demo's paths); the
 *                  catalogue itself is {@code classpath:catalogue.json}, one item at {@code {path}/{id}}
 * @param latency   simulated I/O latency of every request when the caller does not send {@code latencyMs}
 *                  (default 200ms, as in the seed demo)
 * @param jitter    extra random latency, uniform in [0, jitter], when the caller does not send {@code jitterMs}
 */
@Validated
@ConfigurationProperties("downstream")
public record DownstreamProperties(@NotBlank String path,
                                   @NotNull @DefaultValue("200ms") Duration latency,
                                   @NotNull @DefaultValue("0ms") Duration jitter) implements Knobs {
}
