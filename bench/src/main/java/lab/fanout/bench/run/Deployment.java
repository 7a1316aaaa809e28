package lab.fanout.bench.run;

import lab.fanout.bench.system.ServiceInfo;

/**
 * The knobs main-service reported for a cell (its {@code /actuator/info}), which the bound uses: the truth, whatever
 * the matrix asked for.
 *
 * @param profile       active profile, e.g. virtual
 * @param virtual       request threads are virtual
 * @param tomcatThreads server.tomcat.threads.max
 * @param poolTotal     fanout.pool.max-total
 * @param poolPerRoute  fanout.pool.max-per-route
 * @param parallelism   common ForkJoinPool parallelism
 * @param cores         available processors of main-service
 * @param latencyMs     downstream latency of the cell, ms
 */
public record Deployment(String profile, boolean virtual, int tomcatThreads, int poolTotal, int poolPerRoute,
                         int parallelism, int cores, int latencyMs) {

    /** @throws IllegalStateException when main-service reports no knobs (not this project's main-service?) */
    static Deployment of(ServiceInfo info, int latencyMs) {
        if (!info.present() || info.poolMaxTotal() == null) {
            throw new IllegalStateException("main-service reports no knobs at /actuator/info (knobs.runtime, knobs.fanout)");
        }
        int cores = info.json().path("runtime").path("availableProcessors").asInt(1);
        return new Deployment(info.profile(), info.virtualRequestThreads(), info.tomcatThreads(), info.poolMaxTotal(),
                info.poolMaxPerRoute(), info.commonPoolParallelism(), cores, latencyMs);
    }
}
