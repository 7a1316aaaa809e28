package lab.fanout.bench.metrics;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ProcStatTest {

    /** Fields 3.. of a real line (state S, ppid 1, ...): utime 1234, stime 567, cutime 89, cstime 10. */
    static final String REST = " S 1 4242 4242 0 -1 4194304 100 0 0 0 1234 567 89 10 20 0 1 0 12345 1000 200\n";

    @Test
    void readsTheCountersAfterACommandNameWithSpacesAndParentheses() {
        // a process may name itself anything (prctl PR_SET_NAME): the fields start after the LAST ')'
        ProcStat s = ProcStat.parse("4242 (my (odd) cmd) 2)" + REST);
        assertThat(s).isEqualTo(new ProcStat(1234, 567, 89, 10));
        assertThat(s.ownTicks()).isEqualTo(1801);
        assertThat(s.reapedChildrenTicks()).isEqualTo(99);
        assertThat(ProcStat.parse("7 (hey)" + REST)).isEqualTo(s);
    }

    @Test
    void rejectsWhatIsNotAStatLine() {
        assertThatThrownBy(() -> ProcStat.parse("4242 hey S 1 2 3")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ProcStat.parse("4242 (hey) S 1 2 3")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aGoneProcessReadsAsNull() {
        assertThat(ProcStat.read(Long.MAX_VALUE)).isNull();
    }
}
