package lab.fanout.bench.driver;

import java.io.File;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

import lab.fanout.bench.model.DriverRun;
import lab.fanout.bench.model.Load;
import lab.fanout.bench.system.Logs;
import lab.fanout.bench.system.Processes;
import org.HdrHistogram.Histogram;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;

/**
 * The open model: vegeta ({@code github.com/tsenart/vegeta/v12}, v12.13.0) sends at a constant arrival rate whatever
 * the server does, where hey and ab (the closed loop) send a client's next request only after its last answer, so a
 * stalled server is sent fewer requests and the stall never shows in their latencies (coordinated omission: Gil Tene,
 * "How NOT to Measure Latency", 2015; Schroeder, Wierman and Harchol-Balter, "Open Versus Closed: A Cautionary Tale",
 * NSDI 2006).
 * <p>
 * How vegeta paces (read in v12.13.0's {@code lib/attack.go} and {@code lib/pacer.go}): its {@code ConstantPacer}
 * releases hit number {@code i} (0-based) at {@code began + (i + 1) ÷ rate}, and when it falls behind it sends the
 * missed hits at once. A hit goes to an idle worker; when all are busy it starts another one, up to {@code
 * -max-workers}, which we leave at its default (unlimited): a cap would turn it back into a closed loop of that many
 * clients. A result's {@code Timestamp} is when a worker <em>began</em> the hit (taken under the lock that assigns its
 * {@code Seq}), not when it was due, and its {@code Latency} runs from there to the end of the body. So latency here
 * is counted from the moment the request was due: {@code due(i) = began + (i + 1) ÷ rate}, answer at {@code Timestamp
 * + Latency}. vegeta does not write {@code began}; since no hit starts before it is due, {@code began ≤ Timestamp(i) −
 * (i + 1) ÷ rate} for every i, and the largest such value, the minimum over i, is taken ({@link #summarize}).
 * <p>
 * Files per run: {@code base.targets} (one {@code GET url} line), {@code base.vegeta.bin} (vegeta's results),
 * {@code base.vegeta.csv} ({@code vegeta encode --to csv}: timestamp ns, code, latency ns, bytes out, bytes in, error,
 * body (empty: {@code -max-body 0}), attack, seq, method, url, headers) and {@code base.vegeta.txt} (its own output).
 * {@code vegeta encode}'s CPU counts as the driver's, as it runs before the repetition's CPU is read.
 */
public final class VegetaDriver extends LoadDriver {

    public static final String INSTALL = "go install github.com/tsenart/vegeta/v12@v12.13.0"
            + "   (Go from https://go.dev/dl or apt-get install -y golang-go; the binary lands in $(go env GOPATH)/bin)";
    /** A safety net, not a budget: encoding a long soak's results takes seconds to a minute. */
    static final Duration ENCODE_TIMEOUT = Duration.ofMinutes(30);

    private final Optional<Path> executable;

    /** Finds vegeta on PATH, else in $GOPATH/bin, ~/go/bin or {@code go env GOPATH}/bin. */
    public VegetaDriver() {
        this(locate());
    }

    /** @param executable the vegeta binary, or empty: {@link #requireInstalled()} then says how to install it */
    public VegetaDriver(Optional<Path> executable) {
        this.executable = executable;
    }

    @Override
    public String name() {
        return "vegeta";
    }

    @Override
    public String installHint() {
        return INSTALL;
    }

    @Override
    public void requireInstalled() {
        if (executable.isEmpty()) {
            throw new IllegalStateException("vegeta (the open-model load generator for --rate and ratesPerSecond) is not"
                    + " installed: " + INSTALL);
        }
    }

    private String vegeta() {
        return executable.map(Path::toString).orElse("vegeta");
    }

    /**
     * {@code vegeta attack}: {@code -rate} whole req/s, {@code -duration} = requests ÷ rate (ms) or the load's
     * duration, {@code -timeout} per request (0 = none), {@code -workers} = the load's concurrency as the initial
     * workers only, no {@code -max-workers} (unlimited: see the class comment), {@code -max-body 0} (bodies are not
     * kept).
     *
     * @throws IllegalArgumentException for a closed-loop load or a rate that is not a whole number of req/s
     */
    @Override
    public List<String> command(Load load, Path base) {
        Double rate = load.ratePerSecond();
        if (rate == null) {
            throw new IllegalArgumentException("vegeta runs the open model: the load needs a rate (ratesPerSecond)");
        }
        if (rate < 1 || rate != Math.rint(rate)) {
            throw new IllegalArgumentException("vegeta's -rate takes whole requests per second, was " + rate);
        }
        long durationMs = load.requests() != null ? Math.round(1000.0 * load.requests() / rate)
                : 1000L * load.durationSeconds();
        return List.of(vegeta(), "attack", "-targets", targets(base).getFileName().toString(),
                "-rate", Math.round(rate) + "/1s", "-duration", durationMs + "ms",
                "-timeout", load.timeoutSeconds() + "s", "-workers", Integer.toString(load.concurrency()),
                "-max-body", "0", "-output", with(base, ".vegeta.bin").getFileName().toString());
    }

    /** @return e.g. {@code echo 'GET http://…' | vegeta attack -rate 200/1s … | vegeta report}: no files needed */
    @Override
    public String reproduce(Load load, Path base) {
        List<String> attack = new ArrayList<>(command(load, base));
        int targets = attack.indexOf("-targets");
        attack.subList(targets, targets + 2).clear();
        int output = attack.indexOf("-output");
        attack.subList(output, output + 2).clear();
        attack.set(0, "vegeta");
        return "echo 'GET " + load.url() + "' | " + String.join(" ", attack) + " | vegeta report";
    }

    @Override
    public DriverRun run(Load load, Path base) throws InterruptedException {
        try {
            Files.createDirectories(base.toAbsolutePath().getParent());
            Files.writeString(targets(base), "GET " + load.url() + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + targets(base), e);
        }
        return super.run(load, base);
    }

    @Override
    protected Path stdout(Path base) {
        return with(base, ".vegeta.txt");
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
        try {
            Files.writeString(log, encode.output());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + log, e);
        }
        if (!encode.ok()) {
            throw new IllegalStateException("vegeta encode failed (exit " + encode.exitCode() + "): " + Logs.tail(log, 5));
        }
        return summarize(readCsv(csv), load.ratePerSecond());
    }

    /**
     * One request as vegeta reports it.
     *
     * @param timestampNanos when a worker began the hit, ns since the epoch (not when it was due)
     * @param code           HTTP status, 0 when no answer came (refused, reset, timed out)
     * @param latencyNanos   from {@code timestampNanos} to the end of the answer (or the error), ns
     * @param error          vegeta's error text, empty when none (it also holds e.g. "500 Internal Server Error")
     * @param seq            the hit's number, 0-based, in the order hits began
     */
    public record Result(long timestampNanos, int code, long latencyNanos, String error, long seq) {
    }

    /** @return the results in {@code vegeta encode --to csv} output (no header; 12 fields a row) */
    static List<Result> readCsv(Path csv) {
        List<Result> results = new ArrayList<>();
        try (Reader r = Files.newBufferedReader(csv)) {
            for (CSVRecord row : CSVFormat.DEFAULT.builder().setIgnoreEmptyLines(true).get().parse(r)) {
                if (row.size() != 12) {
                    throw new IllegalStateException("line " + row.getRecordNumber() + " has " + row.size()
                            + " fields, vegeta's CSV has 12");
                }
                results.add(new Result(Long.parseLong(row.get(0)), Integer.parseInt(row.get(1)),
                        Long.parseLong(row.get(2)), row.get(5), Long.parseLong(row.get(8))));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read vegeta's CSV " + csv, e);
        } catch (NumberFormatException e) {
            throw new IllegalStateException("not vegeta CSV output (" + csv + "): " + e.getMessage(), e);
        }
        return results;
    }

    /**
     * The open-model figures of one attack.
     * <ul>
     * <li>latency: from the moment each request was due ({@code began + (seq + 1) ÷ rate}, see the class comment) to
     * its answer, µs, every answered request (any status); vegeta's own latency (from the actual send) is kept as
     * {@link DriverRun#sendLatencyMicros()}.</li>
     * <li>window: from the attack's start ({@code began}: n requests are due in its first n ÷ rate seconds) to the
     * last answer, s, so that ok ÷ window, the achieved rate, cannot exceed the offered one and falls below it by the
     * share of the requests that failed and by the time the last answers took. (vegeta's own "throughput" in {@code
     * lib/metrics.go} is alike: successes ÷ (first to last send + wait).)</li>
     * <li>errors: {@code HTTP <code>} for an answer outside 2xx, {@code transport} for none (vegeta's code 0: refused,
     * reset, or its {@code -timeout}).</li>
     * </ul>
     *
     * @param results       every hit of the attack
     * @param ratePerSecond the offered rate, req/s
     * @throws IllegalStateException when there is no result at all
     */
    public static DriverRun summarize(List<Result> results, double ratePerSecond) {
        if (results.isEmpty()) {
            throw new IllegalStateException("vegeta reported no request");
        }
        double intervalNanos = 1e9 / ratePerSecond;
        double began = Double.MAX_VALUE;
        for (Result r : results) {
            began = Math.min(began, r.timestampNanos() - (r.seq() + 1) * intervalNanos);
        }
        Histogram fromDue = DriverRun.histogram();
        Histogram fromSend = DriverRun.histogram();
        SortedMap<String, Long> errors = new TreeMap<>();
        long answered = 0;
        long ok = 0;
        double lastEnd = began;
        for (Result r : results) {
            double end = r.timestampNanos() + (double) r.latencyNanos();
            lastEnd = Math.max(lastEnd, end);
            if (r.code() == 0) {
                errors.merge("transport", 1L, Long::sum);
                continue;
            }
            answered++;
            double due = began + (r.seq() + 1) * intervalNanos;
            fromDue.recordValue(Math.max(1, Math.round((end - due) / 1000)));
            fromSend.recordValue(Math.max(1, Math.round(r.latencyNanos() / 1000.0)));
            if (r.code() / 100 == 2) {
                ok++;
            } else {
                errors.merge("HTTP " + r.code(), 1L, Long::sum);
            }
        }
        return new DriverRun(results.size(), answered, ok, errors, (lastEnd - began) / 1e9, fromDue, ratePerSecond,
                fromSend);
    }

    private static Path targets(Path base) {
        return with(base, ".targets");
    }

    /** @return whether {@link #locate} finds vegeta */
    public static boolean installed() {
        return locate().isPresent();
    }

    /** @return vegeta on PATH, in $GOPATH/bin, ~/go/bin or `go env GOPATH`/bin, or empty */
    static Optional<Path> locate() {
        List<Path> candidates = new ArrayList<>();
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (!dir.isEmpty()) {
                candidates.add(Path.of(dir, "vegeta"));
            }
        }
        String gopath = System.getenv("GOPATH");
        if (gopath != null && !gopath.isBlank()) {
            candidates.add(Path.of(gopath.split(File.pathSeparator)[0], "bin", "vegeta"));
        }
        candidates.add(Path.of(System.getProperty("user.home"), "go", "bin", "vegeta"));
        Optional<Path> found = candidates.stream().filter(Files::isExecutable).findFirst();
        return found.isPresent() ? found : goEnvGopath().map(p -> p.resolve("bin").resolve("vegeta")).filter(Files::isExecutable);
    }

    private static Optional<Path> goEnvGopath() {
        String go = Processes.onPath("go") ? "go" : Files.isExecutable(Path.of("/usr/local/go/bin/go")) ? "/usr/local/go/bin/go" : null;
        if (go == null) {
            return Optional.empty();
        }
        return Processes.output(null, Duration.ofSeconds(30), go, "env", "GOPATH").filter(out -> !out.isEmpty())
                .map(out -> Path.of(out.split(File.pathSeparator)[0]));
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "vegeta (%s)", vegeta());
    }
}
