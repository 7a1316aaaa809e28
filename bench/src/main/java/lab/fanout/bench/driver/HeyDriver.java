package lab.fanout.bench.driver;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SortedMap;
import java.util.TreeMap;

import org.HdrHistogram.Histogram;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;

/**
 * hey (Debian package {@code hey}) with {@code -o csv}: one row per answered request ({@code response-time} and
 * {@code offset} in s, 4 decimals; {@code status-code}), from which exact percentiles follow. hey leaves requests that
 * got no answer (refused, timed out) out of its CSV, so they are counted as requested − answered, kind
 * {@code transport}.
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
    protected DriverRun parse(Load load, Path base, Duration cpu) {
        return parseCsv(stdout(base), load.requests() == null ? -1 : load.requests(), cpu);
    }

    /** Parses hey's CSV; {@code requested} is -n, or -1 for a duration run. */
    static DriverRun parseCsv(Path csv, long requested, Duration cpu) {
        Histogram latencies = DriverRun.histogram();
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
        return new DriverRun(requested, answered, ok, errors, answered == 0 ? 0 : last - first, latencies, cpu);
    }
}
