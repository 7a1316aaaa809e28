package lab.fanout.bench.model;

/**
 * main-service's own figures during one measured run, scraped from {@code /actuator/prometheus}. Null = the metric
 * was absent (shown as n/a, never as 0).
 *
 * @param peakPlatformThreads {@code jvm_threads_live_threads}: platform threads only
 * @param peakVirtualThreads  {@code jvm_threads_virtual_live_threads} summed over {@code scheduling_status}: the
 *                            virtual threads mounted on a carrier or queued for one, not the parked ones (the JDK's
 *                            scheduler MXBean counts no more)
 * @param peakPoolLeased      {@code httpcomponents_httpclient_pool_total_connections{state="leased"}} plus Reactor
 *                            Netty's {@code reactor_netty_connection_provider_active_connections} (reactive on netty)
 * @param peakPoolPending     calls waiting for a connection: {@code httpcomponents_httpclient_pool_total_pending} plus
 *                            {@code reactor_netty_connection_provider_pending_connections}
 * @param cpuSeconds          main-service CPU used during the run, from {@code process_cpu_time_ns_total}, else
 *                            {@code process_cpu_usage} x cores x seconds averaged over the scrapes
 * @param scrapes             successful scrapes (every second): peaks between scrapes can be missed
 * @param hedgesSent          second copies of slow calls sent during the run ({@code fanout_hedges_sent_total}'s
 *                            increase), or null when a scrape failed
 * @param memory              its RSS, OS threads and (with Native Memory Tracking) heap and stacks meanwhile
 * @param pinned              virtual threads that pinned their carrier for 20 ms or more during the run (JFR's
 *                            jdk.VirtualThreadPinned, as Micrometer counts it: the increase of
 *                            {@code jvm_threads_virtual_pinned_seconds_count}), or null when a scrape failed
 * @param peakDbPending       orders-service's requests waiting for a db connection, the peak of HikariCP's
 *                            {@code hikaricp_connections_pending} (JDBC) or r2dbc-pool's
 *                            {@code r2dbc_pool_pending_connections} scraped with main-service's figures; null with the
 *                            memory store
 * @param ordersMemory        orders-service's mid-run snapshot (heap after GC, stacks, virtual threads), taken when it
 *                            runs with Native Memory Tracking (a block's {@code ordersJvmOptions}); else null
 * @param partialAnswers      200s that lacked a downstream's catalogue at the deadline ({@code onDeadline=partial}:
 *                            {@code fanout_answers_partial_total}'s increase), or null when a scrape failed or in a
 *                            result from before 2026-12-07
 */
public record ServerFigures(Double peakPlatformThreads, Double peakVirtualThreads, Double peakPoolLeased,
                            Double peakPoolPending, Double cpuSeconds, int scrapes, Double hedgesSent, Memory memory,
                            Double pinned, Double peakDbPending, Memory.Snapshot ordersMemory, Double partialAnswers) {

    /** Figures of a run without a partial-answer count. */
    public ServerFigures(Double peakPlatformThreads, Double peakVirtualThreads, Double peakPoolLeased,
                         Double peakPoolPending, Double cpuSeconds, int scrapes, Double hedgesSent, Memory memory,
                         Double pinned, Double peakDbPending, Memory.Snapshot ordersMemory) {
        this(peakPlatformThreads, peakVirtualThreads, peakPoolLeased, peakPoolPending, cpuSeconds, scrapes, hedgesSent,
                memory, pinned, peakDbPending, ordersMemory, null);
    }

    /** Figures of a run without orders-service's memory. */
    public ServerFigures(Double peakPlatformThreads, Double peakVirtualThreads, Double peakPoolLeased,
                         Double peakPoolPending, Double cpuSeconds, int scrapes, Double hedgesSent, Memory memory,
                         Double pinned, Double peakDbPending) {
        this(peakPlatformThreads, peakVirtualThreads, peakPoolLeased, peakPoolPending, cpuSeconds, scrapes, hedgesSent,
                memory, pinned, peakDbPending, null);
    }

    /** Figures of a run on the memory store. */
    public ServerFigures(Double peakPlatformThreads, Double peakVirtualThreads, Double peakPoolLeased,
                         Double peakPoolPending, Double cpuSeconds, int scrapes, Double hedgesSent, Memory memory,
                         Double pinned) {
        this(peakPlatformThreads, peakVirtualThreads, peakPoolLeased, peakPoolPending, cpuSeconds, scrapes, hedgesSent,
                memory, pinned, null);
    }

    /** Figures of a run without a pinning count. */
    public ServerFigures(Double peakPlatformThreads, Double peakVirtualThreads, Double peakPoolLeased,
                         Double peakPoolPending, Double cpuSeconds, int scrapes, Double hedgesSent, Memory memory) {
        this(peakPlatformThreads, peakVirtualThreads, peakPoolLeased, peakPoolPending, cpuSeconds, scrapes, hedgesSent,
                memory, null);
    }

    /** Figures of a run without hedging. */
    public ServerFigures(Double peakPlatformThreads, Double peakVirtualThreads, Double peakPoolLeased,
                         Double peakPoolPending, Double cpuSeconds, int scrapes) {
        this(peakPlatformThreads, peakVirtualThreads, peakPoolLeased, peakPoolPending, cpuSeconds, scrapes, null,
                Memory.NONE);
    }
}
