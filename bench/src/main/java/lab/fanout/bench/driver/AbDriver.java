package lab.fanout.bench.driver;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import lab.fanout.bench.model.DriverRun;
import lab.fanout.bench.model.Load;
import org.HdrHistogram.Histogram;

/**
 * ApacheBench (Debian package {@code apache2-utils}), the seed demo's driver: its summary gives the counts and the
 * window, its {@code -g} file one row per request with {@code ttime} (ms). {@code -l} accepts bodies of varying
 * length (else ab counts them as "Length" failures). No constant-rate mode; a timeout ({@code -s}) aborts the run.
 */
public final class AbDriver extends LoadDriver {

    private static final Pattern FAILED = Pattern.compile(
            "\\(Connect: (\\d+), Receive: (\\d+), Length: (\\d+), Exceptions: (\\d+)\\)");
    private static final String[] FAILURE_KINDS = {"connect", "receive", "length", "exception"};

    public AbDriver() {
        super("ab", "apt-get install -y apache2-utils", ".ab.txt");
    }

    @Override
    public List<String> command(Load load, Path base) {
        if (load.ratePerSecond() != null) {
            throw new IllegalArgumentException("ab has no constant-rate mode: use --driver hey for ratesPerSecond");
        }
        List<String> c = new ArrayList<>(List.of("ab", "-l", "-c", Integer.toString(load.concurrency()),
                "-s", Integer.toString(load.timeoutSeconds() == 0 ? 86_400 : load.timeoutSeconds()),   // 0: a day
                "-g", with(base, ".ab.tsv").toString()));
        c.addAll(load.requests() != null ? List.of("-n", load.requests().toString())
                : List.of("-t", load.durationSeconds().toString(), "-n", "100000000"));   // -t alone caps at 50,000
        c.add(load.url().toString());
        return c;
    }

    @Override
    protected DriverRun parse(Load load, Path base) {
        try {
            return parse(Files.readString(output(base)), with(base, ".ab.tsv"), requested(load));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @param summary ab's stdout; {@code gnuplot} its {@code -g} file */
    static DriverRun parse(String summary, Path gnuplot, long requested) throws IOException {
        long complete = Long.parseLong(field(summary, "Complete requests:"));
        double seconds = Double.parseDouble(field(summary, "Time taken for tests:"));
        long non2xx = summary.contains("Non-2xx responses:") ? Long.parseLong(field(summary, "Non-2xx responses:")) : 0;
        SortedMap<String, Long> errors = new TreeMap<>();
        Matcher failed = FAILED.matcher(summary);
        if (failed.find()) {
            for (int i = 0; i < FAILURE_KINDS.length; i++) {
                long n = Long.parseLong(failed.group(i + 1));
                if (n > 0) {
                    errors.put(FAILURE_KINDS[i], n);
                }
            }
        }
        long answered = complete - errors.values().stream().mapToLong(Long::longValue).sum();
        if (non2xx > 0) {
            errors.put("HTTP non-2xx", non2xx);   // ab does not say which status
        }
        Histogram latencies = DriverRun.histogram();
        try (var lines = Files.lines(gnuplot)) {
            lines.skip(1).map(l -> l.split("\t")).filter(f -> f.length >= 6)   // f[4]: ttime, ms
                    .forEach(f -> latencies.recordValue(Math.max(1, Long.parseLong(f[4].trim()) * 1000)));
        }
        return new DriverRun(requested, answered, Math.max(0, answered - non2xx), errors, seconds, latencies);
    }

    /** @return the first word after {@code label} */
    private static String field(String summary, String label) {
        int i = summary.indexOf(label);
        if (i < 0) {
            throw new IllegalStateException("no '" + label + "' in ab's output");
        }
        return summary.substring(i + label.length()).trim().split("\\s+", 2)[0];
    }
}
