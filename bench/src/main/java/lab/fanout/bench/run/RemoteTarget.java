package lab.fanout.bench.run;

import java.net.URI;

import lab.fanout.bench.model.Cell;
import lab.fanout.bench.model.Deployment;
import lab.fanout.bench.system.Http;
import lab.fanout.bench.system.ServiceInfo;

/**
 * An existing deployment (e.g. a cluster behind {@code kubectl port-forward}): its service knobs are what its
 * {@code /actuator/info} says; only request-level variants are swept, the latency as the {@code latencyMs} query
 * parameter main-service forwards to every downstream call.
 */
public final class RemoteTarget implements Target {

    private final URI base;
    private final URI management;

    /**
     * @param base       main-service's public base URL, e.g. {@code http://localhost:2222}
     * @param management its management base URL (the actuator), e.g. {@code http://localhost:9222}
     * @throws IllegalStateException when main-service is not ready there
     */
    public RemoteTarget(URI base, URI management) {
        this.base = URI.create(base.toString().replaceFirst("/+$", ""));
        this.management = URI.create(management.toString().replaceFirst("/+$", ""));
        if (!Http.ready(this.management)) {
            throw new IllegalStateException("no ready main-service at " + management
                    + " (GET /actuator/health/readiness; is it main-service's management port?)");
        }
    }

    public ServiceInfo info() {
        return ServiceInfo.fetch(management);
    }

    @Override
    public Deployment prepare(Cell cell) {
        return info().deployment(cell.latencyMs());
    }

    @Override
    public URI url(Cell cell) {
        return Target.ordersUrl(base, cell, true);
    }

    @Override
    public URI mainManagementUrl() {
        return management;
    }

    @Override
    public String describe() {
        return base + " (existing deployment: only strategy, concurrency, latency and rate are swept)";
    }

    @Override
    public int restartsBetween(Cell previous, Cell next) {
        return 0;
    }

    @Override
    public void close() {
        // not ours to stop
    }
}
