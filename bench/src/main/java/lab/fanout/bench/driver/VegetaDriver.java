package lab.fanout.bench.driver;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Stream;

import lab.fanout.bench.model.DriverRun;
import lab.fanout.bench.model.Load;
import lab.fanout.bench.system.Logs;
import lab.fanout.bench.system.Processes;
import org.HdrHistogram.Histogram;
import org.apache.commons.csv.CSVFormat;

/**
 * The open model: vegeta (v12.13.0) sends at a constant arrival rate whatever the server does. A closed loop (hey,
 * ab) sends a client's next request only after its last answer, so a stalled server gets fewer requests and the stall
 * hides from the latencies: coordinated omission (Gil Tene, "How NOT to Measure Latency", 2015; Schroeder et al.,
 * "Open Versus Closed: A Cautionary Tale", NSDI 2006).
 * <p>
 * Latency is counted from when each request was due (its {@code lib/pacer.go} and {@code lib/attack.go}): hit i
 * (0-based) is due at {@code began + (i + 1) ÷ rate}, and a late pacer sends the missed hits at once, to idle workers
 * or new ones; {@code -max-workers} stays unlimited, as a cap would make it a closed loop again. A result's
 * {@code Timestamp} is when a worker began the hit, not when it was due; vegeta does not write {@code began}, but no
 * hit starts before it is due, so {@code began} is the least {@code Timestamp(i) − (i + 1) ÷ rate}.
 * <p>
 * Files per run: {@code .targets} ({@code GET url}), {@code .vegeta.bin} (its results), {@code .vegeta.csv}
 * ({@code vegeta encode}; its CPU counts as the driver's) and {@code .vegeta.txt} (its output).
 */
public final class VegetaDriver extends LoadDriver {

    public static final String INSTALL = "go install github.com/tsenart/vegeta/v12@v12.13.0   (Go from"
            + " https://go.dev/dl or apt-get install -y golang-go; the binary lands in $(go env GOPATH)/bin)";
    /** A safety net, not a budget: encoding a long soak's results takes seconds to a minute. */
    private static final Duration ENCODE_TIMEOUT = Duration.ofMinutes(30);

    private final Optional<Path> executable;
    private final int maxBodyBytes;

    /** Finds vegeta on PATH, else in $GOPATH/bin, ~/go/bin or {@code go env GOPATH}/bin; keeps no body. */
    public VegetaDriver() {
        this(locate(), 0);
    }

    /** @param maxBodyBytes how much of each answer's body to keep ({@code -max-body}), e.g. for a problem's type */
    public VegetaDriver(int maxBodyBytes) {
        this(locate(), maxBodyBytes);
    }

    /** @param executable the vegeta binary, or empty: {@link #requireInstalled()} then says how to install it */
    public VegetaDriver(Optional<Path> executable) {
        this(executable, 0);
    }

    private VegetaDriver(Optional<Path> executable, int maxBodyBytes) {
        super("vegeta", INSTALL, ".vegeta.txt");
        this.executable = executable;
        this.maxBodyBytes = maxBodyBytes;
    }

    @Override
    public void requireInstalled() {
        if (executable.isEmpty()) {
            throw new IllegalStateException("vegeta (the open-model load generator for --rate and ratesPerSecond)"
                    + " is not installed: " + INSTALL);
        }
    }

    private String vegeta() {
        return executable.map(Path::toString).orElse("vegeta");
    }

    @Override
    public List<String> command(Load load, Path base) {
        return Stream.of(List.of(vegeta(), "attack", "-targets", with(base, ".targets").getFileName().toString()),
                options(load), List.of("-output", with(base, ".vegeta.bin").getFileName().toString()))
                .flatMap(List::stream).toList();
    }

    /** @return e.g. {@code echo 'GET http://…' | vegeta attack -rate 200/1s … | vegeta report}: no files needed */
    @Override
    public String reproduce(Load load, Path base) {
        return "echo 'GET " + load.url() + "' | vegeta attack " + String.join(" ", options(load)) + " | vegeta report";
    }

    /**
     * @return {@code -rate} whole req/s for requests ÷ rate (or the load's duration), the load's concurrency as the
     *         initial {@code -workers} only, bodies kept up to {@code maxBodyBytes}
     * @throws IllegalArgumentException for a closed-loop load or a rate that is not a whole number of req/s
     */
    private List<String> options(Load load) {
        Double rate = load.ratePerSecond();
        if (rate == null) {
            throw new IllegalArgumentException("vegeta runs the open model: the load needs a rate (ratesPerSecond)");
        }
        if (rate < 1 || rate != Math.rint(rate)) {
            throw new IllegalArgumentException("vegeta's -rate takes whole requests per second, was " + rate);
        }
        long durationMs = load.requests() != null ? Math.round(1000.0 * load.requests() / rate)
                : 1000L * load.durationSeconds();
        return List.of("-rate", Math.round(rate) + "/1s", "-duration", durationMs + "ms", "-timeout",
                load.timeoutSeconds() + "s", "-workers", Integer.toString(load.concurrency()), "-max-body",
                Integer.toString(maxBodyBytes));
    }

    @Override
    public DriverRun run(Load load, Path base) throws InterruptedException {
        write(with(base, ".targets"), "GET " + load.url() + "\n");
        return super.run(load, base);
    }

    @Override
    protected DriverRun parse(Load load, Path base) {
        Path bin = with(base, ".vegeta.bin");
        Path csv = with(base, ".vegeta.csv");
        if (!Files.isRegularFile(bin)) {
            throw new IllegalStateException("vegeta wrote no results (" + bin + ")");
        }
        Path log = with(base, ".vegeta-encode.txt");
        Processes.Result encode = Processes.run(List.of(vegeta(), "encode", "--to", "csv", "--output", csv.toString(),
                bin.toString()), null, ENCODE_TIMEOUT);
        write(log, encode.output());
        if (!encode.ok()) {
            throw new IllegalStateException("vegeta encode failed (exit " + encode.exitCode() + "): "
                    + Logs.tail(log, 5));
        }
        return summarize(readCsv(csv), load.ratePerSecond());
    }

    private static void write(Path file, String text) {
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    /**
     * One request as vegeta reports it: when a worker began it (ns since the epoch; not when it was due), its HTTP
     * status (0: no answer, i.e. refused, reset or timed out), the ns from that start to the end of the answer or
     * error, vegeta's error text ("" when none), the hit's number (0-based, in the order hits began) and the first
     * bytes of the answer's body ("" with {@code -max-body 0}).
     */
    public record Result(long timestampNanos, int code, long latencyNanos, String error, long seq, String body) {

        /** Without the body (vegeta ran with {@code -max-body 0}). */
        public Result(long timestampNanos, int code, long latencyNanos, String error, long seq) {
            this(timestampNanos, code, latencyNanos, error, seq, "");
        }
    }

    /** @return the results in {@code vegeta encode --to csv} output (no header; 12 fields a row) */
    public static List<Result> readCsv(Path csv) {
        return readCsv("vegeta", csv, CSVFormat.DEFAULT.builder().setIgnoreEmptyLines(true).get(), row -> {
            if (row.size() != 12) {
                throw new IllegalStateException("line " + row.getRecordNumber() + " has " + row.size()
                        + " fields, vegeta's CSV has 12");
            }
            return new Result(Long.parseLong(row.get(0)), Integer.parseInt(row.get(1)), Long.parseLong(row.get(2)),
                    row.get(5), Long.parseLong(row.get(8)), new String(Base64.getDecoder().decode(row.get(6)),
                    StandardCharsets.UTF_8));
        });
    }

    /**
     * The open-model figures of one attack: latency from each request's due time to its answer (µs, any status;
     * vegeta's own, from the send, as {@link DriverRun#sendLatencyMicros()}); the window from {@code began} to the
     * last answer (s), so ok ÷ window cannot exceed the offered rate (as vegeta's own "throughput"); errors
     * {@code HTTP <code>} outside 2xx and {@code transport} without answer (code 0: refused, reset, timed out).
     *
     * @param ratePerSecond the offered rate, req/s
     * @throws IllegalStateException when there is no result at all
     */
    static DriverRun summarize(List<Result> results, double ratePerSecond) {
        if (results.isEmpty()) {
            throw new IllegalStateException("vegeta reported no request");
        }
        double intervalNanos = 1e9 / ratePerSecond;
        double began = began(results, ratePerSecond);
        Histogram fromDue = DriverRun.histogram();
        Histogram fromSend = DriverRun.histogram();
        SortedMap<String, Long> errors = new TreeMap<>();
        long ok = 0;
        double lastEnd = began;
        for (Result r : results) {
            double end = r.timestampNanos() + (double) r.latencyNanos();
            lastEnd = Math.max(lastEnd, end);
            if (r.code() == 0) {
                errors.merge("transport", 1L, Long::sum);
                continue;
            }
            double due = began + (r.seq() + 1) * intervalNanos;
            fromDue.recordValue(Math.max(1, Math.round((end - due) / 1000)));
            fromSend.recordValue(Math.max(1, Math.round(r.latencyNanos() / 1000.0)));
            if (r.code() / 100 == 2) {
                ok++;
            } else {
                errors.merge("HTTP " + r.code(), 1L, Long::sum);
            }
        }
        return new DriverRun(results.size(), fromDue.getTotalCount(), ok, errors, (lastEnd - began) / 1e9, fromDue,
                ratePerSecond, fromSend);
    }

    /**
     * @return when the attack began, ns since the epoch: the least {@code Timestamp(i) − (i + 1) ÷ rate} (see the class
     *         comment); hit i was due at {@code began + (i + 1) ÷ rate}
     * @throws java.util.NoSuchElementException for no result
     */
    public static double began(List<Result> results, double ratePerSecond) {
        double intervalNanos = 1e9 / ratePerSecond;
        return results.stream().mapToDouble(r -> r.timestampNanos() - (r.seq() + 1) * intervalNanos).min()
                .orElseThrow();
    }

    /** @return whether {@link #locate} finds vegeta */
    public static boolean installed() {
        return locate().isPresent();
    }

    /** @return vegeta on PATH, in $GOPATH/bin, ~/go/bin or `go env GOPATH`/bin, or empty */
    static Optional<Path> locate() {
        List<String> dirs = new ArrayList<>(List.of(System.getenv().getOrDefault("PATH", "")
                .split(File.pathSeparator)));
        String gopath = System.getenv("GOPATH");
        if (gopath != null && !gopath.isBlank()) {
            dirs.add(gopath.split(File.pathSeparator)[0] + "/bin");
        }
        dirs.add(System.getProperty("user.home") + "/go/bin");
        return dirs.stream().filter(d -> !d.isEmpty()).map(d -> Path.of(d, "vegeta")).filter(Files::isExecutable)
                .findFirst().or(() -> goEnvGopath().map(p -> p.resolve("bin/vegeta")).filter(Files::isExecutable));
    }

    private static Optional<Path> goEnvGopath() {
        String go = Processes.onPath("go") ? "go" : "/usr/local/go/bin/go";
        if (!go.equals("go") && !Files.isExecutable(Path.of(go))) {
            return Optional.empty();
        }
        return Processes.output(null, Duration.ofSeconds(30), go, "env", "GOPATH").filter(out -> !out.isEmpty())
                .map(out -> Path.of(out.split(File.pathSeparator)[0]));
    }
}
