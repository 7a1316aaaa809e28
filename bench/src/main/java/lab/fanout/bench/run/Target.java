package lab.fanout.bench.run;

import java.net.URI;
import java.util.Map;

import lab.fanout.bench.model.Cell;
import lab.fanout.bench.model.Deployment;
import lab.fanout.bench.model.ServiceDefaults;
import lab.fanout.bench.system.CpuPlacement;

/** What the load goes to: services the harness starts, those of {@code ./lab up}, or an existing deployment. */
public interface Target extends AutoCloseable {

    /** Gets main-service ready for {@code cell} (restarting what must change) and returns the knobs it reports. */
    Deployment prepare(Cell cell);

    /** @return the URL the driver loads for {@code cell} */
    URI url(Cell cell);

    /** @return main-service's management base URL (its actuator: knobs, readiness, scrapes) */
    URI mainManagementUrl();

    /** @return orders-service's management base URL, or null where the harness does not know it */
    default URI ordersManagementUrl() {
        return null;
    }

    /** @return e.g. {@code local: the four services started by the harness}, for the report */
    String describe();

    /**
     * @return how many service restarts {@link #prepare} does to get from {@code previous} (or none) to {@code next}
     */
    int restartsBetween(Cell previous, Cell next);

    /** @return service name to pid of the services whose CPU the harness can read (those on this machine) */
    /** @return where the harness placed main-service ({@code --main-cpus}); null when it did not start it */
    default CpuPlacement placement() {
        return null;
    }

    default Map<String, Long> servicePids() {
        return Map.of();
    }

    /**
     * Stops the services so that the next {@link #prepare} starts them afresh: a new fork.
     *
     * @throws UnsupportedOperationException for services the harness did not start
     */
    default void restart() {
        throw new UnsupportedOperationException(describe() + ": the harness cannot start these services afresh");
    }

    /** Stops what the target started; nothing for an existing deployment. */
    @Override
    void close();

    /**
     * @return main-service's fan-out URL for {@code cell} with its query; the latency as a query parameter too when
     *         the services' own is fixed
     */
    static URI ordersUrl(URI base, Cell cell, boolean latencyInQuery) {
        String latency = latencyInQuery ? "latencyMs=" + cell.latencyMs() : "";
        return ServiceDefaults.ordersUrl(base, cell.strategy(),
                latency.isEmpty() || cell.query().isEmpty() ? latency + cell.query() : latency + "&" + cell.query());
    }
}
