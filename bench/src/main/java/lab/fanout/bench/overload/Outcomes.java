package lab.fanout.bench.overload;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import lab.fanout.bench.driver.VegetaDriver;
import lab.fanout.bench.model.DriverRun;
import lab.fanout.bench.model.Stats;
import org.HdrHistogram.Histogram;

/**
 * What one overload cell's requests came to, from vegeta's results, every latency from the request's due time (the
 * open model: no coordinated omission, see {@link VegetaDriver}).
 *
 * @param sent             requests offered
 * @param ok               2xx answers
 * @param shed             answers of problem type {@code overloaded}, 429 (or 503 with main-service's
 *                         {@code fanout.admission.refusal-status=503}): main-service's admission control
 * @param otherErrors      the rest by kind: {@code HTTP <code> <problem type>} (e.g. {@code HTTP 503 pool-exhausted}),
 *                         or without an answer {@code timeout} (vegeta gave up), {@code refused}, {@code reset},
 *                         {@code transport}
 * @param goodputPerSecond 2xx answers that ended while the load was offered, from one ideal latency after its start
 *                         (none can end sooner) to its end, per second of that span, req/s: what main-service served
 *                         under the load, without what it finished after the load had stopped
 * @param p50OkMs          the median latency of the 2xx answers, ms; null without one
 * @param p99OkMs          their p99, ms
 * @param p99ShedMs        the shed answers' p99, ms: how fast a shed request learns it
 * @param recoverySeconds  spike only: from the end of the peak to the start of the first second (by due time) whose
 *                         requests all got 2xx with a p99 within {@link #RECOVERED} × the p99 before the peak, s; null
 *                         when no second of the phase after the peak did (or not a spike)
 */
record Outcomes(long sent, long ok, long shed, SortedMap<String, Long> otherErrors, double goodputPerSecond,
                Double p50OkMs, Double p99OkMs, Double p99ShedMs, Double recoverySeconds) {

    /** The statuses of an overloaded answer: 429 by default, 503 with fanout.admission.refusal-status=503. */
    static final Set<Integer> SHED = Set.of(429, 503);
    /** The problem type of main-service's admission control (AdmissionFilter). */
    static final String OVERLOADED = "overloaded";
    private static final Pattern TYPE = Pattern.compile("\"type\"\\s*:\\s*\"[^\"]*?([\\w-]+)\"");
    /** Recovered: a second's p99 at most 20 % above the unloaded one (issue 37's definition). */
    static final double RECOVERED = 1.2;

    Outcomes {
        otherErrors = new TreeMap<>(otherErrors);
    }

    /**
     * One request: when it was due and when its answer (or error) ended, ns since the epoch; status 0 = none; the
     * last segment of its problem+json {@code type} (e.g. {@code overloaded}), or null.
     */
    record Request(double dueNanos, double endNanos, int code, String error, String type) {

        Request(double dueNanos, double endNanos, int code, String error) {
            this(dueNanos, endNanos, code, error, null);
        }

        boolean shed() {
            return SHED.contains(code) && OVERLOADED.equals(type);
        }

        double latencyMicros() {
            return Math.max(1, (endNanos - dueNanos) / 1000);
        }
    }

    /** @return vegeta's results of one attack at {@code ratePerSecond} with each request's due time */
    static List<Request> requests(List<VegetaDriver.Result> results, double ratePerSecond) {
        if (results.isEmpty()) {
            return List.of();
        }
        double began = VegetaDriver.began(results, ratePerSecond);
        double interval = 1e9 / ratePerSecond;
        return results.stream().map(r -> new Request(began + (r.seq() + 1) * interval,
                r.timestampNanos() + (double) r.latencyNanos(), r.code(), r.error(), type(r.body()))).toList();
    }

    /** @return the last segment of a problem+json body's {@code type}, or null (no body, or not a problem) */
    static String type(String body) {
        Matcher m = TYPE.matcher(body == null ? "" : body);
        return m.find() ? m.group(1) : null;
    }

    /**
     * @param seconds        how long the load was offered, s
     * @param latencySeconds the ideal latency, s: no answer can end sooner after the first request
     */
    static Outcomes of(List<Request> all, double seconds, double latencySeconds) {
        return of(all, seconds, latencySeconds, null);
    }

    /**
     * A spike: the three phases together, and the recovery in the last, counted from when its first request was due
     * less one interval (when vegeta began it, {@link VegetaDriver#began}): the end of the peak.
     */
    static Outcomes spike(List<Request> before, List<Request> peak, List<Request> after, double seconds,
                          double latencySeconds) {
        List<Request> all = new ArrayList<>(before);
        all.addAll(peak);
        all.addAll(after);
        return of(all, seconds, latencySeconds, after.size() < 2 ? null : recovery(before, after, began(after)));
    }

    /** @return when the attack of these requests began, ns: the first due time less the interval between two */
    private static double began(List<Request> requests) {
        double first = requests.stream().mapToDouble(Request::dueNanos).min().orElseThrow();
        double second = requests.stream().mapToDouble(Request::dueNanos).filter(d -> d > first).min().orElse(first);
        return first - (second - first);
    }

    private static Outcomes of(List<Request> all, double seconds, double latencySeconds, Double recovery) {
        SortedMap<String, Long> other = new TreeMap<>();
        double start = all.stream().mapToDouble(Request::dueNanos).min().orElse(0);
        double from = start + latencySeconds * 1e9;
        double to = start + seconds * 1e9;
        long served = all.stream().filter(r -> ok(r) && r.endNanos() >= from && r.endNanos() <= to).count();
        long ok = 0;
        long shed = 0;
        for (Request r : all) {
            if (r.code() / 100 == 2) {
                ok++;
            } else if (r.shed()) {
                shed++;
            } else {
                other.merge(kind(r), 1L, Long::sum);
            }
        }
        return new Outcomes(all.size(), ok, shed, other, served / Math.max(1e-9, seconds - latencySeconds),
                ms(all, Outcomes::ok, 50), ms(all, Outcomes::ok, 99), ms(all, Request::shed, 99), recovery);
    }

    /** @return the kind of a failed request: its status, or for none what vegeta's error says */
    static String kind(Request r) {
        if (r.code() != 0) {
            return "HTTP " + r.code() + (r.type() == null ? "" : " " + r.type());
        }
        String e = r.error() == null ? "" : r.error();
        return e.contains("Client.Timeout") || e.contains("deadline exceeded") || e.contains("timeout") ? "timeout"
                : e.contains("connection refused") ? "refused"
                : e.contains("reset by peer") || e.contains("EOF") ? "reset" : "transport";
    }

    /** @return seconds from the end of the peak to the first recovered second, or null when none in the phase */
    static Double recovery(List<Request> before, List<Request> after, double afterBeganNanos) {
        Double unloaded = ms(before, Outcomes::ok, 99);
        if (unloaded == null || after.isEmpty()) {
            return null;
        }
        SortedMap<Long, List<Request>> bySecond = new TreeMap<>();
        after.forEach(r -> bySecond.computeIfAbsent((long) Math.floor((r.dueNanos() - afterBeganNanos) / 1e9),
                s -> new ArrayList<>()).add(r));
        for (Map.Entry<Long, List<Request>> second : bySecond.entrySet()) {
            List<Request> rs = second.getValue();
            Double p99 = ms(rs, Outcomes::ok, 99);
            if (rs.stream().allMatch(Outcomes::ok) && p99 != null && p99 <= RECOVERED * unloaded) {
                return (double) Math.max(0, second.getKey());
            }
        }
        return null;
    }

    private static boolean ok(Request r) {
        return r.code() / 100 == 2;
    }

    /** @return the percentile (0..100) of the matching requests' latency, ms; null when none matches */
    private static Double ms(List<Request> all, Predicate<Request> which, double percentile) {
        Histogram h = DriverRun.histogram();
        all.stream().filter(which).forEach(r -> h.recordValue(Math.round(r.latencyMicros())));
        return h.getTotalCount() == 0 ? null : Stats.percentileMs(h, percentile);
    }

    long otherErrorCount() {
        return otherErrors.values().stream().mapToLong(Long::longValue).sum();
    }
}
