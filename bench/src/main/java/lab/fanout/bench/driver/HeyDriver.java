package lab.fanout.bench.driver;

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

/**
 * hey (Debian package {@code hey}) with {@code -o csv} on stdout: one row per answered request ({@code offset} and
 * {@code response-time} in s, {@code status-code}), so percentiles are exact. Requests without an answer (refused,
 * timed out) are missing from it: counted as requested − answered, kind {@code transport}.
 */
public final class HeyDriver extends LoadDriver {

    /** Fewer answers per client than this before the steady part ends: the whole run is the window. */
    private static final int MIN_STEADY_ROUNDS = 8;

    public HeyDriver() {
        super("hey", "apt-get install -y hey", ".hey.csv");
    }

    @Override
    public List<String> command(Load load, Path base) {
        List<String> c = new ArrayList<>(List.of("hey", "-c", Integer.toString(load.concurrency()),
                "-t", Integer.toString(load.timeoutSeconds()), "-o", "csv"));
        c.addAll(load.requests() != null ? List.of("-n", load.requests().toString())
                : List.of("-z", load.durationSeconds() + "s"));
        if (load.ratePerSecond() != null) {   // -q is per client: the total rate is q x c
            c.addAll(List.of("-q", String.format(Locale.ROOT, "%.4f", load.ratePerSecond() / load.concurrency())));
        }
        c.add(load.url().toString());
        return c;
    }

    @Override
    protected DriverRun parse(Load load, Path base) {
        boolean closedLoopWithQuota = load.requests() != null && load.ratePerSecond() == null;
        return parseCsv(output(base), requested(load), closedLoopWithQuota ? load.concurrency() : 0);
    }

    /** One answered request: start and response time in s from hey's start, HTTP status. */
    private record Answer(double start, double seconds, int status) {
        double end() {
            return start + seconds;
        }
    }

    /**
     * @param requested -n, or -1 for a duration run
     * @param clients   -c of a closed loop with -n, whose ramp-up and drain are left out of the window
     *                  ({@link #steadyWindow}); 0 to take the whole run
     */
    static DriverRun parseCsv(Path csv, long requested, int clients) {
        List<Answer> answers = readCsv(csv);
        if (answers.isEmpty() && requested < 0) {
            // a duration run (warm-up) with no answer at all: nothing to size the repetitions from
            throw new IllegalStateException("no request was answered (" + csv + ")");
        }
        Histogram latencies = DriverRun.histogram();
        SortedMap<String, Long> errors = new TreeMap<>();
        for (Answer a : answers) {
            latencies.recordValue(Math.max(1, Math.round(a.seconds() * 1e6)));
            if (a.status() / 100 != 2) {
                errors.merge("HTTP " + a.status(), 1L, Long::sum);
            }
        }
        long ok = answers.size() - errors.values().stream().mapToLong(Long::longValue).sum();
        if (requested > answers.size()) {
            errors.put("transport", requested - answers.size());
        }
        double first = answers.stream().mapToDouble(Answer::start).min().orElse(0);
        double whole = answers.stream().mapToDouble(Answer::end).max().orElse(0) - first;
        double window = clients > 0 && requested == answers.size() ? steadyWindow(answers, clients, whole) : whole;
        return new DriverRun(requested, answers.size(), ok, errors, window, latencies);
    }

    private static List<Answer> readCsv(Path csv) {
        return readCsv("hey", csv, CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true)
                .setIgnoreEmptyLines(true).get(), row -> row.isMapped("response-time") && row.isSet("status-code")
                ? new Answer(Double.parseDouble(row.get("offset")), Double.parseDouble(row.get("response-time")),
                        Integer.parseInt(row.get("status-code")))
                : null);   // hey writes nothing else in CSV mode, but stay strict about the shape
    }

    /**
     * The steady part [R, T] of a closed loop, as load tests leave out their ramps.
     * R, end of the ramp-up: the last answer to the first c requests (one per client, sent at once while hey opens
     * its connections; that round is ~25 % slower, a fresh driver's cost, not the service's).
     * T, start of the drain: the last moment all c clients had a request in flight (hey -n gives each n ÷ c requests,
     * so at the end they run out one by one: at 16 each and 15 % spread, answers ÷ whole run reads 9 % low).
     * Each request counts by its share inside [R, T], so rate = Σ share ÷ (T − R) (Little's law: c in flight
     * throughout), that of the 2xx answers alone, returned as 2xx answers ÷ their rate, s (the answers' when none is
     * 2xx); latencies still count every request. The 2xx answers' own rate, not answers ÷ rate, because fast errors
     * and slow answers drift the clients apart: a bounded pool at 200 clients answered 6,500/s, 333 of them 2xx, for
     * 4 s, then its clients that had drawn 503s had sent their share and the rest ran at 333 2xx/s alone for 19 s;
     * answers ÷ rate made that 1,224 2xx/s (2026-11-28, scale on netty). The whole run is the window
     * when a request went unanswered (its client looks idle) or with fewer than {@value #MIN_STEADY_ROUNDS} answers
     * per client before T, where the request T cuts is likely a long one (inspection paradox: 9 % over at 5 each).
     *
     * @param whole last answer − first start, s
     */
    private static double steadyWindow(List<Answer> answers, int clients, double whole) {
        List<Answer> byStart = answers.stream().sorted(Comparator.comparingDouble(Answer::start)).toList();
        double[] ends = answers.stream().mapToDouble(Answer::end).sorted().toArray();
        int inFlight = 0;
        int answeredAtFull = -1;
        double full = 0;
        for (int i = 0, j = 0; i < byStart.size(); ) {
            if (j < ends.length && ends[j] < byStart.get(i).start()) {   // back to back: the start counts first
                inFlight--;
                j++;
            } else {
                if (++inFlight >= clients) {
                    full = byStart.get(i).start();
                    answeredAtFull = j;
                }
                i++;
            }
        }
        double rampEnd = byStart.stream().limit(clients).mapToDouble(Answer::end).max().orElse(0);
        if (answeredAtFull < MIN_STEADY_ROUNDS * clients || rampEnd >= full) {
            return whole;
        }
        double share = 0;
        double okShare = 0;
        long ok = 0;
        for (Answer a : answers) {
            double inside = Math.min(a.end(), full) - Math.max(a.start(), rampEnd);
            double counted = a.seconds() <= 0 ? (a.start() >= rampEnd && a.start() <= full ? 1 : 0)
                    : Math.clamp(inside / a.seconds(), 0, 1);
            share += counted;
            if (a.status() / 100 == 2) {
                okShare += counted;
                ok++;
            }
        }
        return okShare > 0 ? ok * (full - rampEnd) / okShare : answers.size() * (full - rampEnd) / share;
    }
}
