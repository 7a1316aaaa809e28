package lab.fanout.main.client;

import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

import static org.assertj.core.api.Assertions.assertThat;

/** The request id: the caller's when it is plain and short, a new one otherwise; bound only while the work runs. */
class RequestContextTest {

    @Test
    void keepsAPlainShortIdAsGiven() {
        assertThat(RequestContext.requestId("gw-42.a:b_c")).isEqualTo("gw-42.a:b_c");
    }

    @Test
    void replacesAMissingLongOrOddId() {
        for (String given : new String[] {null, "", "x".repeat(65), "a b", "<script>", "ä"}) {
            assertThat(RequestContext.requestId(given)).as(String.valueOf(given)).matches("[0-9a-f]{1,16}");
        }
    }

    @Test
    void bindsAllThreeOnlyWhileTheWorkRuns() {
        String seen = RequestContext.call("r1", () -> MDC.get(RequestContext.MDC_KEY) + " "
                + RequestContext.seenHere());

        assertThat(seen).isEqualTo("r1 scopedValue=r1 threadLocal=r1");
        assertThat(RequestContext.seenHere()).isEqualTo("scopedValue=unbound threadLocal=null");
        assertThat(MDC.get(RequestContext.MDC_KEY)).isNull();
    }
}
