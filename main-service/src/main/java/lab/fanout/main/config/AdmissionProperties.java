package lab.fanout.main.config;

import java.time.Duration;

import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;

import lab.fanout.common.Knobs;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * Admission control: the limit on fan-out requests in flight in main-service, checked before Spring MVC's dispatch;
 * a request beyond it is answered 503 {@code overloaded} at once (docs/overload.md). Environment form:
 * {@code FANOUT_ADMISSION_MODE}, {@code FANOUT_ADMISSION_MAX_IN_FLIGHT}, ...
 * <p>
 * Whatever the mode, no limit exceeds the <em>ceiling</em>, what the heap holds: {@code maxHeap × heapShare ÷
 * bytesPerRequest}, so that no burst can drive main-service into OutOfMemoryError.
 *
 * @param mode            {@code off}: no limit (the footprint preset's 10,000 in flight); {@code fixed}: at most
 *                        {@code maxInFlight}; {@code adaptive}: Netflix concurrency-limits' Gradient2 limit, which
 *                        grows while latency holds and shrinks when it rises, between 20 and {@code maxInFlight}
 *                        (default fixed)
 * @param maxInFlight     fixed: the limit; adaptive: its top; unset: the ceiling. Above the ceiling main-service does
 *                        not start (it could not hold that many), and says so
 * @param bytesPerRequest heap one request in flight may take, for the ceiling (default 256KB: above the 95-198 KiB the
 *                        footprint preset measured per request in flight, docs/results.md; the burst's own cost,
 *                        docs/overload.md)
 * @param heapShare       the share of the max heap the requests in flight may fill, 0.05..0.9, for the ceiling; the
 *                        rest is the service's own (about 60 MiB) and the collector's room (default 0.5)
 * @param retryAfter      the {@code Retry-After} of a 503 overloaded, whole seconds (default 1s)
 */
@Validated
@ConfigurationProperties("fanout.admission")
public record AdmissionProperties(@NotNull @DefaultValue("fixed") Mode mode,
                                  @Nullable @Positive Integer maxInFlight,
                                  @NotNull @DefaultValue("256KB") DataSize bytesPerRequest,
                                  @DecimalMin("0.05") @DecimalMax("0.9") @DefaultValue("0.5") double heapShare,
                                  @NotNull @DefaultValue("1s") Duration retryAfter) implements Knobs {

    /** How the limit on requests in flight is set. */
    public enum Mode { OFF, FIXED, ADAPTIVE }

    /**
     * @param maxHeapBytes the JVM's max heap ({@code Runtime.maxMemory()}), bytes
     * @return the most requests in flight the heap holds: {@code maxHeapBytes × heapShare ÷ bytesPerRequest}, at least 1
     */
    public int ceiling(long maxHeapBytes) {
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, maxHeapBytes * heapShare / bytesPerRequest.toBytes()));
    }
}
