package lab.fanout.main.client;

import java.io.IOException;
import java.time.Duration;

import org.apache.hc.client5.http.impl.classic.RequestFailedException;
import org.apache.hc.core5.http.ConnectionRequestTimeoutException;
import org.apache.hc.core5.util.DeadlineTimeoutException;
import org.junit.jupiter.api.Test;

import org.springframework.web.client.ResourceAccessException;

import static org.assertj.core.api.Assertions.assertThat;

/** What a failed call means, for the failures a saturated pool produces (as RestClient wraps them). */
class DownstreamFailuresTest {

    static final Deadline UNSPENT = Deadline.after(Duration.ofSeconds(10));

    static FanoutException.Kind kindOf(IOException io) {
        return DownstreamFailures.of(Downstream.ORDERS, UNSPENT, new ResourceAccessException("I/O error", io)).kind();
    }

    @Test
    void aLeaseThatTimesOutIsPoolExhaustedWhicheverTimerFiredFirst() {
        // the lease request's own wait
        assertThat(kindOf(new ConnectionRequestTimeoutException("Timeout deadline: 5000 MILLISECONDS")))
                .isEqualTo(FanoutException.Kind.POOL_EXHAUSTED);
        // the pool failing an expired pending request at a release (what 10x the bound produced)
        assertThat(kindOf(new RequestFailedException("Request execution failed",
                DeadlineTimeoutException.from(org.apache.hc.core5.util.Deadline.fromUnixMilliseconds(0)))))
                .isEqualTo(FanoutException.Kind.POOL_EXHAUSTED);
    }

    @Test
    void anInterruptWhileLeasingIsStillACancel() {
        FanoutException aborted = DownstreamFailures.of(Downstream.ORDERS, UNSPENT, new ResourceAccessException(
                "I/O error", new RequestFailedException("Request aborted", new InterruptedException())));
        assertThat(aborted.kind()).isEqualTo(FanoutException.Kind.DOWNSTREAM_ERROR);
        assertThat(aborted.getBody().getDetail()).isEqualTo("The call to orders-service was cancelled");
    }
}
