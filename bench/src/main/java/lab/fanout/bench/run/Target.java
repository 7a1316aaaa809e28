package lab.fanout.bench.run;

import java.net.URI;

import lab.fanout.bench.model.Cell;
import lab.fanout.bench.model.Deployment;

/** What the load goes to: the local system the harness runs, or an existing deployment. */
public interface Target extends AutoCloseable {

    String ORDERS_PATH = "/backoffice/api/v1/backoffice/orders";

    /** Gets main-service ready for {@code cell} (restarting what must change) and returns what it reports. */
    Deployment prepare(Cell cell);

    /** @return the URL the driver loads for {@code cell} */
    URI url(Cell cell);

    /** @return main-service's public base URL (the API the load goes to) */
    URI mainBaseUrl();

    /** @return main-service's management base URL (its actuator: knobs, readiness, scrapes) */
    URI mainManagementUrl();

    /** @return e.g. {@code local (started by the harness)} or {@code http://localhost:2222 (existing deployment)} */
    String describe();

    /** @return how many service restarts {@link #prepare} will do to get from {@code previous} (or nothing) to {@code next} */
    int restartsBetween(Cell previous, Cell next);

    /**
     * @return service name to pid of the services on this machine whose CPU the harness can read (those it started),
     *         for the CPU accounting; empty when it does not know them (a remote deployment). The harness and its
     *         driver are always measured (lab.fanout.bench.metrics.MachineCpu).
     */
    default java.util.Map<String, Long> servicePids() {
        return java.util.Map.of();
    }

    /** Stops what the target started; a no-op for an existing deployment. */
    @Override
    void close();
}
