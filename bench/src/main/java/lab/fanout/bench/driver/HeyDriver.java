package lab.fanout.bench.driver;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.SortedMap;
import java.util.TreeMap;

import lab.fanout.bench.model.DriverRun;
import lab.fanout.bench.model.Load;
import org.HdrHistogram.Histogram;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;

/**
 * hey (Debian package {@code hey}) with {@code -o csv}: one row per answered request ({@code response-time} and
 * {@code offset} in s, 4 decimals; {@code status-code}), from which exact percentiles follow. hey leaves requests that
 * got no answer (refused, timed out) out of its CSV, so they are counted as requested − answered, kind
 * {@code transport}. The window of a closed-loop run leaves its ramp-up and drain out ({@link #steadyWindow}).
 */
public final class HeyDriver extends LoadDriver {

    @Override
    public String name() {
        return "hey";
    }

    @Override
    public String installHint() {
        return "apt-get install -y hey";
    }

    @Override
    public List<String> command(Load load, Path base) {
        List<String> c = new ArrayList<>(List.of("hey", "-c", Integer.toString(load.concurrency()),
                "-t", Integer.toString(load.timeoutSeconds()), "-o", "csv"));
        if (load.requests() != null) {
            c.addAll(List.of("-n", load.requests().toString()));
        } else {
            c.addAll(List.of("-z", load.durationSeconds() + "s"));
        }
        if (load.ratePerSecond() != null) {
            // -q is per client: the total rate is q x c
            c.addAll(List.of("-q", String.format(Locale.ROOT, "%.4f", load.ratePerSecond() / load.concurrency())));
        }
        c.add(load.url().toString());
        return c;
    }

    /** hey writes its CSV to stdout. */
    @Override
    protected Path stdout(Path base) {
        return with(base, ".hey.csv");
    }

    @Override
    protected DriverRun parse(Load load, Path base) {
        boolean closedLoopWithQuota = load.requests() != null && load.ratePerSecond() == null;
        return parseCsv(stdout(base), load.requests() == null ? -1 : load.requests(),
                closedLoopWithQuota ? load.concurrency() : 0);
    }

    /**
     * Parses hey's CSV.
     *
     * @param requested -n, or -1 for a duration run
     * @param clients   -c of a closed-loop run with -n, whose drain is left out of the window (see
     *                  {@link #steadyWindow}); 0 to take the whole run as the window
     */
    static DriverRun parseCsv(Path csv, long requested, int clients) {
        Histogram latencies = DriverRun.histogram();
        List<double[]> spans = new ArrayList<>();
        SortedMap<String, Long> errors = new TreeMap<>();
        long answered = 0;
        long ok = 0;
        double first = Double.MAX_VALUE;
        double last = 0;
        try (Reader r = Files.newBufferedReader(csv)) {
            for (CSVRecord row : CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true)
                    .setIgnoreEmptyLines(true).get().parse(r)) {
                if (!row.isMapped("response-time") || !row.isSet("status-code")) {
                    continue;   // hey prints nothing else to stdout in CSV mode, but stay strict about the shape
                }
                double seconds = Double.parseDouble(row.get("response-time"));
                double offset = Double.parseDouble(row.get("offset"));
                int status = Integer.parseInt(row.get("status-code"));
                latencies.recordValue(Math.max(1, Math.round(seconds * 1e6)));
                answered++;
                if (status / 100 == 2) {
                    ok++;
                } else {
                    errors.merge("HTTP " + status, 1L, Long::sum);
                }
                first = Math.min(first, offset);
                last = Math.max(last, offset + seconds);
                spans.add(new double[] {offset, offset + seconds});
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read hey's CSV " + csv, e);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("not hey CSV output (" + csv + "): " + e.getMessage(), e);
        }
        if (answered == 0 && requested < 0) {
            // a duration run (warm-up) with no answer at all: nothing to size the repetitions from
            throw new IllegalStateException("no request was answered (" + csv + ")");
        }
        if (requested > answered) {
            errors.merge("transport", requested - answered, Long::sum);
        }
        double window = answered == 0 ? 0 : last - first;
        if (clients > 0 && requested == answered) {
            window = steadyWindow(spans, clients, first, window);
        }
        return new DriverRun(requested, answered, ok, errors, window, latencies);
    }

    /**
     * The ramp-up and the drain of a closed loop left out, as load tests leave out their ramps.
     * <ul>
     * <li>Ramp-up: hey opens its c connections with the first c requests, all sent at once; that first round is
     * slower (25 % at 100 clients and 200 ms on 2 cores: 250-260 ms against 205-220 later) and is a property of a
     * fresh driver, not of the service. The steady part starts at R, when the last of those first c requests was
     * answered (hey's CSV does not name clients: the first c starts are the clients' first requests, since each
     * client's second one waits for its first answer).</li>
     * <li>Drain: hey -n gives each client n ÷ c requests, so near the end clients run out one by one and the rate
     * falls while the last ones finish: with 16 requests per client and a latency spread of 15 %, that tail alone
     * lowers answers ÷ whole run by about 9 %. The steady part ends at T, the last moment all c clients had a
     * request in flight.</li>
     * </ul>
     * The rate counts each request by the share of it inside [R, T] (overlap ÷ its response time), so that requests
     * cut by R or T count in part whatever the clients' phases: rate = Σ share ÷ (T − R) (Little's law holds over the
     * steady part: c in flight throughout). Returned as the time the run's answers would take at that rate, so
     * answers ÷ window is the steady rate. Latency percentiles still count every request, ramp included. The whole
     * run is the window when a request got no answer (its client would look idle) or when fewer than
     * {@value #MIN_STEADY_ROUNDS} answers per client come before T: over a few rounds the request that T cuts is more
     * likely a long one (the inspection paradox), which over-counts. Seen in the seed's pool-size cell (5 requests
     * per client, latencies of 2, 4 or 6 s): 9 % over the bound.
     *
     * @param spans  [start, end] of every answered request, s from hey's start
     * @param whole  last answer − first start, s
     * @return the window in s
     */
    static final int MIN_STEADY_ROUNDS = 8;

    static double steadyWindow(List<double[]> spans, int clients, double first, double whole) {
        List<double[]> byStart = spans.stream().sorted(Comparator.comparingDouble(s -> s[0])).toList();
        double[] starts = byStart.stream().mapToDouble(s -> s[0]).toArray();
        double[] ends = spans.stream().mapToDouble(s -> s[1]).sorted().toArray();
        int inFlight = 0;
        int answered = 0;
        int answeredAtFull = -1;
        double full = first;
        for (int i = 0, j = 0; i < starts.length; ) {
            if (j < ends.length && ends[j] < starts[i]) {  // a start at the same instant comes first: back to back
                inFlight--;
                answered++;
                j++;
            } else {
                inFlight++;
                if (inFlight >= clients) {
                    full = starts[i];
                    answeredAtFull = answered;
                }
                i++;
            }
        }
        if (answeredAtFull < MIN_STEADY_ROUNDS * clients) {
            return whole;
        }
        double rampEnd = byStart.stream().limit(clients).mapToDouble(s -> s[1]).max().orElse(first);
        if (rampEnd >= full) {
            return whole;
        }
        double share = 0;
        for (double[] span : spans) {
            double length = span[1] - span[0];
            double inside = Math.min(span[1], full) - Math.max(span[0], rampEnd);
            share += length <= 0 ? (span[0] >= rampEnd && span[0] <= full ? 1 : 0) : Math.clamp(inside / length, 0, 1);
        }
        return spans.size() * (full - rampEnd) / share;
    }
}
