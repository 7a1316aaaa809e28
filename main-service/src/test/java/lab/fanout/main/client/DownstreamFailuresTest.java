package lab.fanout.main.client;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import io.netty.handler.timeout.ReadTimeoutException;
import org.apache.hc.client5.http.impl.classic.RequestFailedException;
import org.apache.hc.core5.http.ConnectionRequestTimeoutException;
import org.apache.hc.core5.util.DeadlineTimeoutException;
import org.junit.jupiter.api.Test;
import reactor.netty.channel.AbortedException;
import reactor.netty.http.client.PrematureCloseException;
import reactor.netty.internal.shaded.reactor.pool.PoolAcquireTimeoutException;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.reactive.function.client.WebClientRequestException;
import org.springframework.web.reactive.function.client.WebClientResponseException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a failed call means: the failures a saturated pool produces (as RestClient wraps them), and Reactor Netty's
 * failures under WebClient ({@code fanout.reactive.client=reactor-netty}), which must read as HttpClient 5's do.
 */
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
        assertThat(aborted.detail()).isEqualTo("The call to orders-service was cancelled");
    }

    /** As WebClient wraps a failure before the response's head (Spring's ExchangeFunctions). */
    static WebClientRequestException beforeTheResponse(Throwable cause) {
        return new WebClientRequestException(cause, HttpMethod.GET, URI.create("http://127.0.0.1:1/order"),
                new HttpHeaders());
    }

    /** As WebClient wraps a failure while the body of a 200 arrives (its response spec's body handling). */
    static WebClientResponseException whileTheBodyArrives(Throwable cause) {
        var failure = new WebClientResponseException(200, "OK", new HttpHeaders(), new byte[0],
                StandardCharsets.UTF_8);
        failure.initCause(cause);
        return failure;
    }

    static FanoutException translated(Throwable failure) {
        return DownstreamFailures.of(Downstream.ORDERS, UNSPENT, failure);
    }

    @Test
    void reactorNettysAcquireTimeoutIsPoolExhausted() {
        FanoutException exhausted = translated(beforeTheResponse(new PoolAcquireTimeoutException(
                Duration.ofMillis(100))));

        assertThat(exhausted.kind()).isEqualTo(FanoutException.Kind.POOL_EXHAUSTED);
        assertThat(exhausted.detail()).isEqualTo(
                "No pooled connection to orders-service could be leased in time: the pool is saturated");
    }

    /** Netty's ReadTimeoutException is no IOException: it used to read as a body that is not the catalogue. */
    @Test
    void reactorNettysResponseTimeoutIsADownstreamTimeoutBeforeTheHeadAndInTheBody() {
        for (var failure : new Throwable[] {beforeTheResponse(ReadTimeoutException.INSTANCE),
                whileTheBodyArrives(ReadTimeoutException.INSTANCE)}) {
            FanoutException timeout = translated(failure);
            assertThat(timeout.kind()).as(failure.getClass().getSimpleName())
                    .isEqualTo(FanoutException.Kind.DOWNSTREAM_TIMEOUT);
            assertThat(timeout.detail())
                    .isEqualTo("orders-service sent no response within the response timeout");
        }
    }

    @Test
    void reactorNettysResponseTimeoutAfterTheDeadlineIsTheDeadlines() {
        FanoutException late = DownstreamFailures.of(Downstream.ORDERS, Deadline.after(Duration.ZERO),
                beforeTheResponse(ReadTimeoutException.INSTANCE));

        assertThat(late.kind()).isEqualTo(FanoutException.Kind.DEADLINE_EXCEEDED);
    }

    @Test
    void reactorNettysConnectFailuresAreUnreachable() {
        for (var cause : new IOException[] {new ConnectException("Connection refused: /127.0.0.1:1"),
                new io.netty.channel.ConnectTimeoutException("connection timed out after 3000 ms: /10.0.0.1:80")}) {
            FanoutException unreachable = translated(beforeTheResponse(cause));
            assertThat(unreachable.kind()).isEqualTo(FanoutException.Kind.DOWNSTREAM_ERROR);
            assertThat(unreachable.detail()).isEqualTo("orders-service could not be reached");
        }
    }

    @Test
    void reactorNettysPrematureCloseBeforeTheResponseIsAConnectionClosedWithoutOne() {
        FanoutException closed = translated(beforeTheResponse(PrematureCloseException.TEST_EXCEPTION));

        assertThat(closed.kind()).isEqualTo(FanoutException.Kind.DOWNSTREAM_ERROR);
        assertThat(closed.detail()).isEqualTo("orders-service closed the connection without a response");
    }

    @Test
    void reactorNettysPrematureCloseInTheBodyAndAnAbortedSendAreABrokenConnection() {
        for (var failure : new Throwable[] {whileTheBodyArrives(PrematureCloseException.TEST_EXCEPTION),
                beforeTheResponse(AbortedException.beforeSend())}) {
            FanoutException broken = translated(failure);
            assertThat(broken.kind()).isEqualTo(FanoutException.Kind.DOWNSTREAM_ERROR);
            assertThat(broken.detail()).isEqualTo("orders-service reset or broke the connection");
        }
    }
}
