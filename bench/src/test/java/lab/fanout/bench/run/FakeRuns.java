package lab.fanout.bench.run;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeMap;
import java.util.function.Predicate;

import lab.fanout.bench.driver.LoadDriver;
import lab.fanout.bench.model.Cell;
import lab.fanout.bench.model.Deployment;
import lab.fanout.bench.model.DriverRun;
import lab.fanout.bench.model.Load;
import org.HdrHistogram.Histogram;

/** A target and a driver without services or processes, for tests that run {@link BenchRunner} for real. */
public final class FakeRuns {

    private FakeRuns() {
    }

    /** Prepares every cell as a 2-core virtual deployment, logged in {@code events}; throws where {@code fails}. */
    public static Target target(List<String> events, Predicate<Cell> fails) {
        return new Target() {
            @Override
            public Deployment prepare(Cell cell) {
                if (fails.test(cell)) {
                    throw new IllegalStateException("stopped while main-service was starting");
                }
                events.add("prepare " + cell.concurrency());
                return new Deployment("virtual", true, 200, 500, 500, 1, 2, 200);
            }

            @Override
            public URI url(Cell cell) {
                return URI.create("http://127.0.0.1:9/orders");
            }

            @Override
            public URI mainManagementUrl() {
                return URI.create("http://127.0.0.1:9");   // the discard port: nothing answers, no figures scraped
            }

            @Override
            public String describe() {
                return "fake";
            }

            @Override
            public int restartsBetween(Cell previous, Cell next) {
                return 0;
            }

            @Override
            public void restart() {
                events.add("restart");
            }

            @Override
            public void close() {
            }
        };
    }

    /** Every run: all requests answered 2xx in 1 s. */
    public static LoadDriver steadyDriver() {
        return steadyDriver(new Histogram(3));
    }

    /** Every run: all requests answered 2xx in 1 s, with these 400 response times, µs. */
    public static LoadDriver steadyDriver(Histogram latencies) {
        return new LoadDriver("fake", "", ".out") {
            @Override
            public List<String> command(Load load, Path base) {
                return List.of("fake");
            }

            @Override
            protected DriverRun parse(Load load, Path base) {
                throw new UnsupportedOperationException();
            }

            @Override
            public DriverRun run(Load load, Path base) {
                return new DriverRun(load.concurrency(), 400, 400, new TreeMap<>(), 1, latencies.copy());
            }
        };
    }
}
