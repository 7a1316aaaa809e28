package lab.fanout.main.admission;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import lab.fanout.main.config.AdmissionProperties;
import lab.fanout.main.config.AdmissionProperties.Mode;
import org.junit.jupiter.api.Test;

import org.springframework.util.unit.DataSize;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The limit on requests in flight, on a fake clock: fixed, adaptive (Gradient2) under the ceiling, and off. */
class AdmissionTest {

    private static final long HEAP = 512L << 20;   // 512 MiB: ceiling 512 MiB x 0.4 / 256 KiB = 819

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private long now;

    @Test
    void theCeilingsAreWhatTheirShareOfTheHeapHolds() {
        assertThat(properties(Mode.FIXED, null).ceiling(HEAP)).isEqualTo(819);
        assertThat(properties(Mode.FIXED, null).ceiling(1L << 30)).isEqualTo(1638);
        assertThat(properties(Mode.FIXED, null).connectionCeiling(HEAP)).as("512 MiB x 0.3 / 24 KiB").isEqualTo(6553);
    }

    @Test
    void fixedWithoutALimitTakesTomcatsPlatformPoolOrTheCeilingIfLower() {
        assertThat(admission(Mode.FIXED, null).limit()).as("512 MiB: ceiling 819").contains(200);
        long small = 64L << 20;   // ceiling 64 MiB x 0.4 / 256 KiB = 102
        assertThat(new Admission(properties(Mode.FIXED, null), small, meters, () -> now).limit()).contains(102);
        assertThat(admission(Mode.FIXED, 819).limit()).as("up to the ceiling when asked").contains(819);
    }

    @Test
    void fixedAdmitsUpToItsLimitAndAgainOnceOneIsAnswered() {
        Admission admission = admission(Mode.FIXED, 3);
        List<Admission.Ticket> held = admitAll(admission, 3);

        assertThat(admission.tryAdmit()).as("the fourth, at the limit").isEmpty();
        assertThat(admission.inFlight()).isEqualTo(3);
        held.getFirst().release(200);
        assertThat(admission.tryAdmit()).as("after one answer").isPresent();
        assertThat(meters.get("fanout.admission.requests").tag("outcome", "rejected").counter().count()).isEqualTo(1);
        assertThat(meters.get("fanout.admission.requests").tag("outcome", "admitted").counter().count()).isEqualTo(4);
        assertThat(meters.get("fanout.admission.in.flight").gauge().value()).isEqualTo(3);
    }

    @Test
    void aLimitAboveTheCeilingStopsTheStartWithTheFix() {
        assertThatThrownBy(() -> admission(Mode.FIXED, 820))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("820 is above what the heap holds: 819")
                .hasMessageContaining("-Xmx").hasMessageContaining("fanout.admission.mode=off");
    }

    @Test
    void offAdmitsPastTheCeilingAndShowsNoLimit() {
        Admission admission = admission(Mode.OFF, null);
        admitAll(admission, 5000);

        assertThat(admission.inFlight()).as("past the ceiling of 819").isEqualTo(5000);
        assertThat(admission.limit()).isEmpty();
        assertThat(meters.find("fanout.admission.limit").gauge()).isNull();
    }

    /**
     * Gradient2 raises its limit while the latency holds at its long-run level and the requests fill the limit,
     * never past its top; when the latency jumps it lowers the limit at once, before its long-run average catches up
     * (Netflix concurrency-limits; after that the new latency is the norm and the limit grows again).
     */
    @Test
    void adaptiveGrowsWhileLatencyHoldsNeverPastItsTopAndShrinksWhenLatencyRises() {
        Admission admission = admission(Mode.ADAPTIVE, 100);
        assertThat(admission.limit()).as("starts at the floor").contains(Admission.ADAPTIVE_MIN);

        int steady = rounds(admission, 200, Duration.ofMillis(200));
        assertThat(steady).as("after steady rounds at 200 ms").isEqualTo(100);

        int slow = rounds(admission, 2, Duration.ofMillis(2000));
        assertThat(slow).as("after rounds at 10 x the latency").isLessThan(steady).isGreaterThanOrEqualTo(
                Admission.ADAPTIVE_MIN);
    }

    /** @return the limit after {@code count} rounds, each admitting all it can and answering them after {@code rtt} */
    private int rounds(Admission admission, int count, Duration rtt) {
        for (int i = 0; i < count; i++) {
            List<Admission.Ticket> held = new ArrayList<>();
            for (Optional<Admission.Ticket> t = admission.tryAdmit(); t.isPresent(); t = admission.tryAdmit()) {
                held.add(t.get());
            }
            assertThat(held.size()).as("admitted at once").isLessThanOrEqualTo(100);
            now += rtt.toNanos();
            held.forEach(ticket -> ticket.release(200));
        }
        return admission.limit().orElseThrow();
    }

    private List<Admission.Ticket> admitAll(Admission admission, int count) {
        List<Admission.Ticket> held = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            held.add(admission.tryAdmit().orElseThrow(() -> new AssertionError("refused below the limit")));
        }
        return held;
    }

    private Admission admission(Mode mode, Integer maxInFlight) {
        return new Admission(properties(mode, maxInFlight), HEAP, meters, () -> now);
    }

    private static AdmissionProperties properties(Mode mode, Integer maxInFlight) {
        return new AdmissionProperties(mode, maxInFlight, DataSize.ofKilobytes(256), 0.4, DataSize.ofKilobytes(24), 0.3,
                Duration.ofSeconds(1), false, 429);
    }
}
