package lab.fanout.main.config;

import java.net.URI;
import java.time.Duration;
import java.util.List;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;

import lab.fanout.common.Knobs;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The knobs of main-service's outbound side. Each has an environment-variable form (e.g. {@code FANOUT_POOL_MAX_TOTAL});
 * all are logged at start-up and shown at {@code /backoffice/actuator/info}.
 *
 * @param downstreams     base URLs of the three downstream services
 * @param pool            the Apache HttpClient 5 connection pool shared by every downstream call
 * @param connectTimeout  TCP connect timeout of one downstream call (default 3s: with 1s, a connect whose SYN was
 *                        dropped, and retried by Linux after 1 s, or whose completion a CPU-starved I/O reactor saw
 *                        late, failed as 502; under overload that cascaded: docs/reliability.md)
 * @param responseTimeout socket read timeout of one downstream call: the longest wait for response bytes (default 5s)
 * @param breaker         a circuit breaker per downstream, off unless {@code fanout.breaker.enabled}
 * @param deadline        processing budget of one whole fan-out request, from when the controller starts it (time
 *                        queued for a request thread is not counted: nothing tells when the request arrived); no
 *                        downstream call waits past it, and when it runs out the request ends with 504 (default 10s:
 *                        above 3 x the seed's 2 s latency, so that {@code sequential} can finish)
 * @param reactive        the {@code reactive} strategy's HTTP client
 */
@Validated
@ConfigurationProperties("fanout")
public record FanoutProperties(@Valid @DefaultValue Downstreams downstreams,
                               @Valid @DefaultValue Pool pool,
                               @NotNull @DefaultValue("3s") Duration connectTimeout,
                               @NotNull @DefaultValue("5s") Duration responseTimeout,
                               @NotNull @DefaultValue("10s") Duration deadline,
                               @Valid @DefaultValue Breaker breaker,
                               @Valid @DefaultValue Reactive reactive) implements Knobs {

    /**
     * @param orders   base URL of orders-service (default http://localhost:8082)
     * @param products base URL of products-service (default http://localhost:8083)
     * @param accounts base URL of accounts-service (default http://localhost:8081)
     */
    public record Downstreams(@NotNull @DefaultValue("http://localhost:8082") URI orders,
                              @NotNull @DefaultValue("http://localhost:8083") URI products,
                              @NotNull @DefaultValue("http://localhost:8081") URI accounts) {

        /** The downstreams a request fans out to: width calls to each (docs/knobs.md, "width"). */
        static final int COUNT = 3;
    }

    /**
     * @param maxTotal       connections open at once across all downstreams (default 500, the seed's pool size;
     *                       HttpClient's own default of 25 would make every benchmark a benchmark of the pool)
     * @param maxPerRoute    connections open at once to one downstream (default ceil(maxTotal / 3), 167: a slow or
     *                       hanging downstream holds at most its third of the pool, and the calls to the other two
     *                       still get connections; a request of width w holds up to w, twice that when hedged)
     * @param acquireTimeout longest wait to lease a pooled connection; past it the request ends with 503 (default 5s)
     */
    public record Pool(@Positive @DefaultValue("500") int maxTotal,
                       @Nullable @Positive Integer maxPerRoute,
                       @NotNull @DefaultValue("5s") Duration acquireTimeout) {

        public Pool {
            if (maxPerRoute == null) {
                maxPerRoute = Math.ceilDiv(maxTotal, Downstreams.COUNT);
            }
        }
    }

    /**
     * A circuit breaker per downstream (Resilience4j): when too many of a downstream's recent calls failed or were
     * slow, it opens, and requests that need that downstream are answered 503 {@code circuit-open} at once instead of
     * waiting out its timeouts; after {@code waitInOpen} it lets {@code halfOpenCalls} probes through, and closes
     * again if they succeed. Off by default, so that measurements see the raw fault (the breakers then report the
     * state {@code disabled}).
     *
     * @param enabled               switch ({@code FANOUT_BREAKER_ENABLED}; default false)
     * @param window                the sliding window of calls the rates are computed over, whole seconds
     *                              (default 10s)
     * @param minimumCalls          calls in the window before a rate can open the breaker (default 20)
     * @param failureRateThreshold  percentage of failed calls (errors, timeouts, the deadline) that opens it (default 50)
     * @param slowCallDuration      a call that took longer is slow, whatever its outcome (default 2s: ten times the
     *                              lab's default latency)
     * @param slowCallRateThreshold percentage of slow calls that opens it (default 50)
     * @param waitInOpen            how long it stays open before it lets probes through (half-open) (default 5s)
     * @param halfOpenCalls         probe calls half-open; they decide between closed and open again (default 5)
     */
    public record Breaker(@DefaultValue("false") boolean enabled,
                          @NotNull @DefaultValue("10s") Duration window,
                          @Positive @DefaultValue("20") int minimumCalls,
                          @Positive @Max(100) @DefaultValue("50") int failureRateThreshold,
                          @NotNull @DefaultValue("2s") Duration slowCallDuration,
                          @Positive @Max(100) @DefaultValue("50") int slowCallRateThreshold,
                          @NotNull @DefaultValue("5s") Duration waitInOpen,
                          @Positive @DefaultValue("5") int halfOpenCalls) {
    }

    /**
     * The {@code reactive} strategy's HTTP client under its {@code WebClient} (docs/strategies.md, "On Reactor Netty").
     * The other six strategies always use HttpClient 5's classic client.
     *
     * @param client {@code httpclient5}: Apache HttpClient 5's async client, its own I/O threads
     *               ({@code reactive-io-N}) and pool ({@code httpcomponents_httpclient_pool_*} with
     *               {@code httpclient="downstream-reactive"}); {@code reactor-netty}: Reactor Netty's
     *               {@code HttpClient}, which runs the calls on Reactor Netty's event loops (under the {@code netty}
     *               profile the server's own), its pool {@code reactor_netty_connection_provider_*} with
     *               {@code name="downstream-reactive"}, at most {@code fanout.pool.max-per-route} connections to each
     *               downstream; {@code fanout.pool.max-total} does not apply to it (default reactor-netty on every server, as
     *               WebClient ships and as measured faster: docs/strategies.md). Anything else stops the start, naming
     *               the valid values
     * @throws IllegalArgumentException {@code client} neither of them (main-service does not start)
     */
    public record Reactive(@DefaultValue(REACTOR_NETTY) String client) {

        /** Apache HttpClient 5's async client. */
        public static final String HTTPCLIENT5 = "httpclient5";
        /** Reactor Netty's HttpClient (the default). */
        public static final String REACTOR_NETTY = "reactor-netty";
        /** The values {@code fanout.reactive.client} takes, as written (case matters). */
        public static final List<String> CLIENTS = List.of(HTTPCLIENT5, REACTOR_NETTY);

        public Reactive {
            if (client == null || !CLIENTS.contains(client)) {   // List.of's contains throws on null
                throw new IllegalArgumentException("fanout.reactive.client must be " + String.join(" or ", CLIENTS)
                        + ", was " + client);
            }
        }
    }
}
