package lab.fanout.main.strategy;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

/**
 * The fan-out strategies, by the names the seed demo's {@code concurrency} parameter used. {@link #toString()} is
 * that name, so error messages list exactly what a client may send.
 */
public enum StrategyName {
    /** The three calls one after another on the request thread. */
    SEQUENTIAL("sequential", "seq"),
    /** CompletableFuture.supplyAsync on the common ForkJoinPool (parallelism = cores - 1: 1 on 2 cores). */
    COMPLETABLE_FUTURE("completableFuture", "cf", "commonPool"),
    /** CompletableFuture.supplyAsync on a new platform thread per call. */
    THREAD_PER_TASK("completableFutureWithThreadTaskExecutor", "threadPerTask", "threads"),
    /** CompletableFuture.supplyAsync on a new virtual thread per call. */
    VIRTUAL_THREAD_PER_TASK("completableFutureWithVirtualTaskExecutor", "virtualThreadPerTask"),
    /** StructuredTaskScope (JDK 25 preview, JEP 505): a virtual thread per call, siblings cancelled on failure. */
    SCOPE_FORK("scopeFork", "structured", "scope"),
    /** WebClient on HttpClient 5's async client, joined with Mono.zip: no thread waits, siblings cancelled on failure. */
    REACTIVE("reactive", "webclient"),
    /**
     * CompletableFuture.supplyAsync on a fixed pool of platform threads with a bounded queue (the bulkhead): a call past
     * both is refused, and its request answered 503 bulkhead-full.
     */
    BOUNDED_POOL("completableFutureWithBoundedPool", "boundedPool", "pool", "bulkhead");

    private final String parameterValue;
    private final List<String> aliases;

    StrategyName(String parameterValue, String... aliases) {
        this.parameterValue = parameterValue;
        this.aliases = List.of(aliases);
    }

    /**
     * @param value the seed's name or a short alias, e.g. {@code scopeFork} or {@code scope}; case-insensitive
     * @throws IllegalArgumentException naming the valid values, if none matches
     */
    public static StrategyName fromParameter(String value) {
        return Arrays.stream(values())
                .filter(s -> Stream.concat(Stream.of(s.parameterValue), s.aliases.stream()).anyMatch(value::equalsIgnoreCase))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("'" + value + "' is not one of " + Arrays.toString(values())));
    }

    public List<String> aliases() {
        return aliases;
    }

    @Override
    public String toString() {
        return parameterValue;
    }
}
