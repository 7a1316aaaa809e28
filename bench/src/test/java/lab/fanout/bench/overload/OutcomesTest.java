package lab.fanout.bench.overload;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The overload preset's figures from requests with known due times, answers and problem types. */
class OutcomesTest {

    static final double S = 1e9;   // ns
    static final String SHED_BODY = "{\"type\":\"https://github.com/fanout-lab/problems/overloaded\",\"title\":\"O";

    static Outcomes.Request ok(double dueS, double latencyS) {
        return new Outcomes.Request(dueS * S, (dueS + latencyS) * S, 200, "");
    }

    static Outcomes.Request failed(double dueS, double latencyS, int code, String type) {
        return new Outcomes.Request(dueS * S, (dueS + latencyS) * S, code, "", type);
    }

    @Test
    void shedIsA429Or503OfTypeOverloadedAndOtherErrorsCountByTheirType() {
        List<Outcomes.Request> all = List.of(ok(0, 2), failed(0.1, 0.005, 503, "overloaded"),
                failed(0.15, 0.003, 429, "overloaded"), failed(0.18, 0.004, 429, null),
                failed(0.2, 5, 503, "pool-exhausted"), failed(0.3, 10, 504, "deadline-exceeded"),
                new Outcomes.Request(0.4 * S, 15.4 * S, 0, "Get \"http://127.0.0.1/\": context deadline exceeded"
                        + " (Client.Timeout exceeded while awaiting headers)"),
                new Outcomes.Request(0.5 * S, 0.5 * S, 0, "dial tcp 127.0.0.1:2222: connect: connection refused"));
        Outcomes o = Outcomes.of(all, 10, 2);
        assertThat(o.sent()).isEqualTo(8);
        assertThat(o.ok()).isEqualTo(1);
        assertThat(o.shed()).isEqualTo(2);
        assertThat(o.otherErrors()).containsExactlyInAnyOrderEntriesOf(java.util.Map.of("HTTP 503 pool-exhausted", 1L,
                "HTTP 429", 1L,
                "HTTP 504 deadline-exceeded", 1L, "timeout", 1L, "refused", 1L));
        assertThat(o.p99ShedMs()).isCloseTo(5, within(0.1));
        assertThat(o.p99OkMs()).isCloseTo(2000, within(2.0));
    }

    @Test
    void readsTheProblemTypeFromTheFirstBytesOfTheBody() {
        assertThat(Outcomes.type(SHED_BODY)).isEqualTo("overloaded");
        assertThat(Outcomes.type("{\"type\" : \"about:blank/pool-exhausted\"}")).isEqualTo("pool-exhausted");
        assertThat(Outcomes.type("{\"orders\":[]}")).isNull();
        assertThat(Outcomes.type("")).isNull();
    }

    @Test
    void goodputCountsTheAnswersThatEndedWhileTheLoadWasOfferedFromOneLatencyOn() {
        // 10 req/s for 10 s, each answered after 2 s: 80 answers end in [2 s, 10 s], 8 s -> 10 req/s
        List<Outcomes.Request> steady = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            steady.add(ok(0.1 * i, 2));
        }
        assertThat(Outcomes.of(steady, 10, 2).goodputPerSecond()).isCloseTo(10, within(0.2));
        // the same requests answered only after the load stopped (a backlog drained later) served nothing under it
        List<Outcomes.Request> late = steady.stream().map(r -> ok(r.dueNanos() / S, 11)).toList();
        assertThat(Outcomes.of(late, 10, 2).goodputPerSecond()).isZero();
        assertThat(Outcomes.of(late, 10, 2).ok()).isEqualTo(100);
    }

    @Test
    void recoveryIsTheFirstSecondAfterThePeakWhoseRequestsAllSucceedWithinATwentyPercentLongerP99() {
        List<Outcomes.Request> before = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            before.add(ok(0.5 * i, 2.0));   // unloaded p99 2 s: recovered at <= 2.4 s
        }
        List<Outcomes.Request> after = new ArrayList<>();
        double end = 100;   // the peak ended at 100 s; one request every 0.5 s after it
        for (int i = 0; i < 20; i++) {
            double due = end + 0.5 * (i + 1);   // as vegeta's: hit i due at began + (i + 1) x interval
            int second = (int) Math.floor(due - end);
            after.add(second < 3 ? failed(due, 0.01, 503, "overloaded")      // seconds 0-2: still shed
                    : second < 5 ? ok(due, 3.0)                             // seconds 3-4: all 2xx, p99 too high
                    : ok(due, 2.3));                                        // from second 5: recovered
        }
        assertThat(Outcomes.recovery(before, after, end * S)).isEqualTo(5.0);
        assertThat(Outcomes.spike(before, List.of(), after, 30, 2).recoverySeconds()).isEqualTo(5.0);
        List<Outcomes.Request> never = after.stream().map(r -> ok(r.dueNanos() / S, 3.0)).toList();
        assertThat(Outcomes.recovery(before, never, end * S)).isNull();
    }
}
