package lab.fanout.bench.system;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The open-file check before a run: below clients + pool + 1,000 it stops with the way to raise the limit; below
 * twice the clients it warns.
 */
class OpenFileLimitTest {

    private final List<String> warnings = new ArrayList<>();

    @Test
    void tooManyClientsForTheLimitFailWithHowToRaiseIt() {
        long limit = OpenFileLimit.hard().orElse(Long.MAX_VALUE);
        if (limit > Integer.MAX_VALUE) {
            return;   // no limit to read here (not Linux) or unlimited: nothing can be too many
        }
        assertThatThrownBy(() -> OpenFileLimit.require((int) limit, 500, warnings::add))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("ulimit -Hn is " + limit).hasMessageContaining("ulimit -n 65536");
    }

    @Test
    void clientsThatFitOnlyOnceAreAWarning() {
        long limit = OpenFileLimit.hard().orElse(Long.MAX_VALUE);
        if (limit > Integer.MAX_VALUE) {
            return;
        }
        OpenFileLimit.require((int) (limit - 1000) / 2 + 100, 0, warnings::add);
        assertThat(warnings).singleElement().asString().contains("EMFILE");
    }

    @Test
    void aFewClientsPassQuietly() {
        OpenFileLimit.require(10, 10, warnings::add);
        assertThat(warnings).isEmpty();
    }
}
