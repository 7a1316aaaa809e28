package lab.fanout.bench.model;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

/**
 * main-service's fan-out strategies, by the seed demo's {@code concurrency} names (its {@code StrategyName} enum; the
 * harness is a separate client, so it keeps its own copy of the names and of what each does to the bound).
 */
public enum Strategy {
    SEQUENTIAL("sequential", Shape.SEQUENTIAL, "Sequential", "", "seq"),
    COMPLETABLE_FUTURE("completableFuture", Shape.COMMON_POOL, "CompletableFuture", "ForkJoinPool (common)", "cf", "commonPool"),
    THREAD_PER_TASK("completableFutureWithThreadTaskExecutor", Shape.PARALLEL, "CompletableFuture",
            "newThreadPerTaskExecutor", "threadPerTask", "threads"),
    VIRTUAL_THREAD_PER_TASK("completableFutureWithVirtualTaskExecutor", Shape.PARALLEL, "CompletableFuture",
            "newVirtualThreadPerTaskExecutor", "virtualThreadPerTask", "virtual"),
    SCOPE_FORK("scopeFork", Shape.PARALLEL, "ScopeFork", "StructuredTaskScope", "structured", "scope"),
    REACTIVE("reactive", Shape.PARALLEL, "Mono.zip", "WebClient (HttpClient 5 async)", "webclient");

    /** How the three downstream calls of one request are run, which decides the ideal latency. */
    public enum Shape {
        /** one after another: ideal latency 3 x latency */
        SEQUENTIAL,
        /** all three at once: ideal latency 1 x latency */
        PARALLEL,
        /** on the common ForkJoinPool: at once only as far as its parallelism allows, and shared by all requests */
        COMMON_POOL
    }

    private final String parameter;
    private final Shape shape;
    private final String concurrencyLabel;
    private final String executorLabel;
    private final List<String> aliases;

    Strategy(String parameter, Shape shape, String concurrencyLabel, String executorLabel, String... aliases) {
        this.parameter = parameter;
        this.shape = shape;
        this.concurrencyLabel = concurrencyLabel;
        this.executorLabel = executorLabel;
        this.aliases = List.of(aliases);
    }

    /**
     * @param value a seed name or alias, case-insensitive, e.g. {@code scopeFork} or {@code scope}
     * @throws IllegalArgumentException naming the valid values
     */
    public static Strategy parse(String value) {
        return Arrays.stream(values())
                .filter(s -> Stream.concat(Stream.of(s.parameter), s.aliases.stream()).anyMatch(value.trim()::equalsIgnoreCase))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("strategy '" + value + "' is not one of "
                        + Arrays.toString(values()) + " (aliases: " + String.join(", ", Arrays.stream(values())
                        .flatMap(s -> s.aliases.stream()).toList()) + ")"));
    }

    public Shape shape() {
        return shape;
    }

    /**
     * Whether a request holds its servlet request thread while its calls run. The reactive strategy returns a Mono to
     * Spring MVC, which releases the request thread at once and answers from an async dispatch when the Mono ends, so
     * Tomcat's max threads do not bound it (the pool, the route, the clients and the CPU do); every other strategy
     * waits on the request thread.
     */
    public boolean holdsRequestThread() {
        return this != REACTIVE;
    }

    /** @return a name short enough for chart axes, e.g. {@code threadPerTask} */
    public String shortName() {
        return switch (this) {
            case SEQUENTIAL -> "sequential";
            case COMPLETABLE_FUTURE -> "commonPool";
            case THREAD_PER_TASK -> "threadPerTask";
            case VIRTUAL_THREAD_PER_TASK -> "virtualThreadPerTask";
            case SCOPE_FORK -> "scopeFork";
            case REACTIVE -> "reactive";
        };
    }

    /** The seed table's "Concurrency" column. */
    public String concurrencyLabel() {
        return concurrencyLabel;
    }

    /** The seed table's "Executor" column. */
    public String executorLabel() {
        return executorLabel;
    }

    @Override
    public String toString() {
        return parameter;
    }
}
