package lab.fanout.bench.system;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.assertThatNoException;

/** The open-file check before a run: a limit below clients + pool + 1,000 stops it with the way to raise it. */
class OpenFileLimitTest {

    @Test
    void tooManyClientsForTheLimitFailWithHowToRaiseIt() {
        long limit = OpenFileLimit.hard().orElse(Long.MAX_VALUE);
        if (limit == Long.MAX_VALUE) {
            return;   // no limit to read here (not Linux) or unlimited: nothing can be too many
        }
        assertThatThrownBy(() -> OpenFileLimit.require((int) Math.min(Integer.MAX_VALUE, limit / 2), 1000))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("ulimit -Hn is " + limit).hasMessageContaining("ulimit -n 65536");
    }

    @Test
    void aFewClientsPass() {
        assertThatNoException().isThrownBy(() -> OpenFileLimit.require(10, 10));
    }
}
