package lab.fanout.main.client;

import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;
import java.util.regex.Pattern;

import io.micrometer.context.ContextRegistry;
import io.micrometer.context.integration.Slf4jThreadLocalAccessor;
import org.jspecify.annotations.Nullable;
import org.slf4j.MDC;
import reactor.core.publisher.Mono;
import reactor.util.context.Context;

/**
 * The request context the web layer binds around a fan-out, in the three ways Java code carries one, so that the
 * code making each downstream call can show which of them reached it (its DEBUG line, {@link DownstreamClient}):
 * the MDC key {@value #MDC_KEY}, the {@link ScopedValue} {@link #SCOPED} and the plain {@link ThreadLocal}
 * {@link #PLAIN}, each holding the request id ({@link #requestId}). The trace context (the current observation and
 * its span) is Micrometer's, not ours. docs/strategies.md, "Which context reaches the calls", has the table.
 * <p>
 * The MDC key is registered with context-propagation ({@link Slf4jThreadLocalAccessor}): wherever a strategy carries
 * the trace (a {@code ContextSnapshot}, Reactor's automatic propagation), the key travels with it. The ThreadLocal is
 * deliberately registered nowhere: it shows what any other thread-bound value (a security context, a tenant id) loses.
 */
public final class RequestContext {

    /** The MDC key, beside Micrometer Tracing's own {@code traceId} and {@code spanId}. */
    public static final String MDC_KEY = "requestId";
    /** Inherited by the threads of a {@code StructuredTaskScope} opened where it is bound (JEP 506), nowhere else. */
    public static final ScopedValue<String> SCOPED = ScopedValue.newInstance();
    /** Not inherited, not propagated: seen only on the thread that set it. */
    public static final ThreadLocal<@Nullable String> PLAIN = new ThreadLocal<>();
    /** What a caller's {@code X-Request-Id} may hold to be used as given: short, and harmless in a log line. */
    private static final Pattern GIVEN_ID = Pattern.compile("[A-Za-z0-9._:-]{1,64}");

    static {
        // registered when the first request binds the context (call), before any strategy captures it; one accessor
        // for the one key (its registry key is fixed, so a second Slf4jThreadLocalAccessor would replace it)
        ContextRegistry.getInstance().registerThreadLocalAccessor(new Slf4jThreadLocalAccessor(MDC_KEY));
    }

    private RequestContext() {
    }

    /**
     * @param given the caller's {@code X-Request-Id}, or null
     * @return {@code given} if it is 1-64 characters of letters, digits and {@code ._:-}; otherwise a new random id
     *         (a bad header is not worth a 400: the id only labels log lines)
     */
    public static String requestId(@Nullable String given) {
        return given != null && GIVEN_ID.matcher(given).matches() ? given
                : Long.toHexString(ThreadLocalRandom.current().nextLong());
    }

    /**
     * Runs {@code work} on this thread with {@code requestId} in all three carriers; each is unbound again after it.
     *
     * @return what {@code work} returns
     */
    public static <T> T call(String requestId, Supplier<T> work) {
        MDC.put(MDC_KEY, requestId);
        PLAIN.set(requestId);
        try {
            return ScopedValue.where(SCOPED, requestId).call(work::get);
        } finally {
            PLAIN.remove();
            MDC.remove(MDC_KEY);
        }
    }

    /**
     * For a fan-out that runs as a {@code Mono}: no thread of the request's binds anything while it runs, so the MDC
     * key goes into its Reactor {@link Context}, from which Reactor's automatic context propagation
     * ({@code spring.reactor.context-propagation=auto}) sets it around each operator; the ScopedValue and the
     * ThreadLocal have no such way in.
     *
     * @return {@code fanout}, with {@code requestId} under the MDC key of its Reactor context
     */
    public static <T> Mono<T> carriedBy(String requestId, Mono<T> fanout) {
        return fanout.contextWrite(Context.of(Slf4jThreadLocalAccessor.KEY, Map.of(MDC_KEY, requestId)));
    }

    /**
     * @return what reached this thread, for the call's log line:
     *         {@code scopedValue=<id|unbound> threadLocal=<id|null>}
     */
    static String seenHere() {
        return "scopedValue=" + (SCOPED.isBound() ? SCOPED.get() : "unbound") + " threadLocal=" + PLAIN.get();
    }
}
