package lab.fanout.main.config;

import java.time.Duration;
import java.util.Set;

import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;

import lab.fanout.common.Knobs;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.annotation.JsonSerialize;
import tools.jackson.databind.ser.std.ToStringSerializer;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * Admission control: the limit on fan-out requests in flight in main-service, checked before Spring MVC's dispatch;
 * a request beyond it is answered 429 {@code overloaded} at once (or 503, {@code refusalStatus}; docs/overload.md).
 * Environment form:
 * {@code FANOUT_ADMISSION_MODE}, {@code FANOUT_ADMISSION_MAX_IN_FLIGHT}, ...
 * <p>
 * Whatever the mode, no limit exceeds the <em>ceiling</em>, what the heap holds: {@code maxHeap × heapShare ÷
 * bytesPerRequest}; and Tomcat keeps no more connections open than {@code maxHeap × connectionHeapShare ÷
 * bytesPerConnection} (or {@code server.tomcat.max-connections} if lower), because an open connection costs heap too
 * whether its request is admitted or not. Together they leave the rest of the heap to the service itself (about
 * 30 MiB live) and the collector, so that no burst can drive main-service into OutOfMemoryError (docs/overload.md).
 * <p>
 * The two sizes show at {@code /actuator/info} as Spring reads them back (e.g. {@code 262144B}); a {@code DataSize}'s
 * own getters would serialise as {@code {"negative":false}}.
 *
 * @param mode            {@code off}: no limit (the footprint preset's 10,000 in flight); {@code fixed}: at most
 *                        {@code maxInFlight}; {@code adaptive}: Netflix concurrency-limits' Gradient2 limit, which
 *                        grows while latency holds and shrinks when it rises, between 20 and {@code maxInFlight}
 *                        (default fixed)
 * @param maxInFlight     fixed: the limit, unset {@link #DEFAULT_FIXED} or the ceiling if lower; adaptive: its top,
 *                        unset the ceiling. Above the ceiling main-service does not start (it could not hold that many),
 *                        and says so
 * @param bytesPerRequest heap one request in flight may take, for the ceiling (default 256KB: above the 95-198 KiB the
 *                        footprint preset measured per request in flight, docs/results.md; the burst's own cost,
 *                        docs/overload.md)
 * @param heapShare       the share of the max heap the requests in flight may fill, 0.05..0.6, for the ceiling
 *                        (default 0.4)
 * @param bytesPerConnection heap one open connection takes, for the connection ceiling (default 24KB: 16-22 KiB
 *                        measured per connection at 6,000 open, Tomcat's 8 KiB read and write buffers and the request's
 *                        parsing state, docs/overload.md)
 * @param connectionHeapShare the share of the max heap open connections may fill, 0.05..0.4 (default 0.3: 6,553
 *                        connections at 512 MiB, 10,000 or more from 781 MiB)
 * @param retryAfter      the {@code Retry-After} of an overloaded answer, whole seconds (default 1s)
 * @param expireQueued    Tomcat: answer a request that waited to run (for a platform thread, or a virtual thread
 *                        for a carrier) past the deadline overloaded without starting it (default true; not with mode
 *                        off, which sheds nothing; docs/overload.md)
 * @param refusalStatus   the HTTP status of an overloaded answer, 429 or 503 (default 429: Tomcat closes the
 *                        connection after every 503, so each refusal would cost its client a reconnect through
 *                        Tomcat's one acceptor; Netflix concurrency-limits' servlet filter and Kubernetes' API
 *                        Priority and Fairness answer 429 too; docs/overload.md, "Which status")
 * @throws IllegalArgumentException {@code refusalStatus} neither 429 nor 503 (main-service does not start)
 */
@Validated
@ConfigurationProperties("fanout.admission")
public record AdmissionProperties(@NotNull @DefaultValue("fixed") Mode mode,
                                  @Nullable @Positive Integer maxInFlight,
                                  @NotNull @DefaultValue("256KB") @JsonSerialize(using = ToStringSerializer.class)
                                  DataSize bytesPerRequest,
                                  @DecimalMin("0.05") @DecimalMax("0.6") @DefaultValue("0.4") double heapShare,
                                  @NotNull @DefaultValue("24KB") @JsonSerialize(using = ToStringSerializer.class)
                                  DataSize bytesPerConnection,
                                  @DecimalMin("0.05") @DecimalMax("0.4") @DefaultValue("0.3")
                                  double connectionHeapShare,
                                  @NotNull @DefaultValue("1s") Duration retryAfter,
                                  @DefaultValue("true") boolean expireQueued,
                                  @DefaultValue("429") int refusalStatus) implements Knobs {

    /** The statuses an overloaded answer may carry: Too Many Requests, Service Unavailable. */
    public static final Set<Integer> REFUSAL_STATUSES = Set.of(429, 503);

    public AdmissionProperties {
        if (!REFUSAL_STATUSES.contains(refusalStatus)) {
            throw new IllegalArgumentException("fanout.admission.refusal-status must be 429 or 503, was "
                    + refusalStatus);
        }
    }

    /**
     * The fixed limit when {@code maxInFlight} is unset: as many requests at once as Tomcat's platform request pool
     * runs by default ({@code server.tomcat.threads.max}), so that virtual request threads change how a request
     * waits, not how many run (JEP 444: "use semaphores to limit concurrency"). The heap's ceiling alone (819 at
     * 512 MiB) admitted more than two cores and a pool serve within the deadline (docs/overload.md).
     */
    public static final int DEFAULT_FIXED = 200;

    /** How the limit on requests in flight is set. */
    public enum Mode { OFF, FIXED, ADAPTIVE }

    /**
     * @param maxHeapBytes the JVM's max heap ({@code Runtime.maxMemory()}), bytes
     * @return the most requests in flight the heap holds: {@code maxHeapBytes × heapShare ÷ bytesPerRequest}, at least 1
     */
    public int ceiling(long maxHeapBytes) {
        return share(maxHeapBytes, heapShare, bytesPerRequest);
    }

    /**
     * @param maxHeapBytes the JVM's max heap, bytes
     * @return the most connections the heap holds open: {@code maxHeapBytes × connectionHeapShare ÷
     *         bytesPerConnection}, at least 1
     */
    public int connectionCeiling(long maxHeapBytes) {
        return share(maxHeapBytes, connectionHeapShare, bytesPerConnection);
    }

    private static int share(long maxHeapBytes, double share, DataSize each) {
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, maxHeapBytes * share / each.toBytes()));
    }
}
