package lab.fanout.bench.model;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

/**
 * main-service's fan-out strategies by the seed demo's {@code concurrency} names; the harness is a separate client,
 * so it keeps its own copy of the names and of what each does to the bound.
 */
public enum Strategy {
    SEQUENTIAL("sequential", Shape.SEQUENTIAL, "sequential", "", "seq"),
    COMPLETABLE_FUTURE("completableFuture", Shape.COMMON_POOL, "common pool", "ForkJoinPool (common)", "cf",
            "commonPool"),
    THREAD_PER_TASK("completableFutureWithThreadTaskExecutor", Shape.PARALLEL, "thread-per-task",
            "newThreadPerTaskExecutor", "threadPerTask", "threads"),
    VIRTUAL_THREAD_PER_TASK("completableFutureWithVirtualTaskExecutor", Shape.PARALLEL, "virtual-thread executor",
            "newVirtualThreadPerTaskExecutor", "virtualThreadPerTask"),
    SCOPE_FORK("scopeFork", Shape.PARALLEL, "scopeFork", "StructuredTaskScope", "structured", "scope"),
    REACTIVE("reactive", Shape.PARALLEL, "reactive", "WebClient", "webclient"),
    BOUNDED_POOL("completableFutureWithBoundedPool", Shape.BOUNDED_POOL, "bounded pool",
            "ThreadPoolExecutor (bounded queue)", "boundedPool", "pool", "bulkhead");

    /** How the three downstream calls of one request run, which decides the ideal latency. */
    public enum Shape {
        /** one after another: 3 × latency */
        SEQUENTIAL,
        /** all three at once: 1 × latency */
        PARALLEL,
        /** on the common ForkJoinPool, shared by all requests: at once only as far as its parallelism allows */
        COMMON_POOL,
        /** all three at once on a fixed pool shared by all requests, as far as its threads allow; past it refused */
        BOUNDED_POOL
    }

    private final String parameter;
    private final Shape shape;
    private final String proseName;
    private final String executorLabel;
    private final List<String> aliases;

    Strategy(String parameter, Shape shape, String proseName, String executorLabel, String... aliases) {
        this.parameter = parameter;
        this.shape = shape;
        this.proseName = proseName;
        this.executorLabel = executorLabel;
        this.aliases = List.of(aliases);
    }

    /**
     * @param value a seed name or alias, case-insensitive, e.g. {@code scopeFork} or {@code scope}
     * @throws IllegalArgumentException naming the valid values
     */
    public static Strategy parse(String value) {
        return Arrays.stream(values())
                .filter(s -> Stream.concat(Stream.of(s.parameter), s.aliases.stream())
                        .anyMatch(value.trim()::equalsIgnoreCase))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("strategy '" + value + "' is not one of "
                        + Arrays.toString(values()) + " (aliases: " + String.join(", ", Arrays.stream(values())
                        .flatMap(s -> s.aliases.stream()).toList()) + ")"));
    }

    public Shape shape() {
        return shape;
    }

    /**
     * Whether a request holds its servlet request thread while its calls run: all but reactive, whose Mono lets Spring
     * MVC release the thread at once and answer from an async dispatch, so Tomcat's max threads do not bound it.
     */
    public boolean holdsRequestThread() {
        return this != REACTIVE;
    }

    /** @return the name sentences and charts use (docs/glossary.md), e.g. {@code thread-per-task} */
    public String proseName() {
        return proseName;
    }

    /** The seed table's "Executor" column. */
    public String executorLabel() {
        return executorLabel;
    }

    /**
     * @param reactiveClient the {@code fanout.reactive.client} main-service reported, null if the run did not record it
     * @return the "Executor" column with reactive's client, e.g. {@code WebClient (Reactor Netty)}
     */
    public String executorLabel(String reactiveClient) {
        if (this != REACTIVE) {
            return executorLabel;
        }
        return executorLabel + switch (reactiveClient) {
            case "reactor-netty" -> " (Reactor Netty)";
            case "httpclient5" -> " (HttpClient 5 async)";
            case null -> " (client not recorded)";
            default -> " (" + reactiveClient + ")";
        };
    }

    @Override
    public String toString() {
        return parameter;
    }
}
