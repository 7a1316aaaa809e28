package lab.fanout.orders;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import io.micrometer.core.instrument.MeterRegistry;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.core5.http.NoHttpResponseException;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The faults a downstream injects on request, as the client main-service uses (Apache HttpClient 5) sees them, and
 * the two counters of what became of its callers: abandoned and late.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = "downstream.latency=0ms")
class DownstreamFaultsTest {

    private static final String PATH = "/order/api/v1/orders";

    @LocalServerPort
    int port;

    @Autowired
    MeterRegistry registry;

    private final CloseableHttpClient client = HttpClients.custom().disableAutomaticRetries().build();

    /**
     * Every request has ended, whichever way it went, and the in-flight gauge says so: a request counted twice (an
     * asynchronous answer passes the interceptors twice) would leave it above 0, and let awaitInFlight pass early.
     */
    @AfterEach
    void close() throws IOException {
        client.close();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> registry.get("downstream.requests.in.flight").gauge().value() == 0);
    }

    @Test
    void injectedErrorIsProblemJsonWithTheAskedStatusAndFailsWithoutTheLatency() throws IOException {
        long start = System.nanoTime();
        Answer answer = get("?latencyMs=10000&errorRate=1&errorStatus=503");
        assertThat(answer.status()).isEqualTo(503);
        assertThat(answer.contentType()).startsWith("application/problem+json");
        assertThat(answer.body()).contains("https://fanout-lab.dev/problems/injected-fault");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMillis(5000));
    }

    @Test
    void errorStatusWithoutRateFailsEveryRequest() throws IOException {
        for (int i = 0; i < 5; i++) {
            assertThat(get("?errorStatus=429").status()).isEqualTo(429);
        }
    }

    @Test
    void errorRateZeroNeverFails() throws IOException {
        for (int i = 0; i < 5; i++) {
            assertThat(get("?errorRate=0&errorStatus=500").status()).isEqualTo(200);
        }
    }

    @Test
    void closedConnectionIsNoHttpResponseForTheClientNotAReset() {
        // Tomcat's CLOSE_NOW closes with a FIN before any byte: no "Connection reset" SocketException
        assertThatThrownBy(() -> get("?closeRate=1")).isInstanceOf(NoHttpResponseException.class);
    }

    @Test
    void longTailAddsItsLatency() throws IOException {
        long start = System.nanoTime();
        assertThat(get("?latencyMs=0&tailMs=800").status()).isEqualTo(200);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(800));
    }

    @Test
    void dribbledBodyStartsAtOnceAndArrivesWholeAfterTheDribbleTime() throws IOException {
        String whole = get("?latencyMs=0").body();
        long start = System.nanoTime();
        client.execute(new HttpGet(url("?latencyMs=0&dribbleMs=4000")), response -> {
            assertThat(response.getCode()).isEqualTo(200);
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMillis(3000));
            assertThat(EntityUtils.toString(response.getEntity())).isEqualTo(whole);
            return null;
        });
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(4000));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            latencyMs=60001    | latencyMs: must be less than or equal to 60000
            jitterMs=-1        | jitterMs: must be greater than or equal to 0
            errorRate=1.01     | errorRate: must be less than or equal to 1
            errorRate=-0.5     | errorRate: must be greater than or equal to 0
            errorRate=often    | errorRate: 'often' is not a number
            errorStatus=399    | errorStatus: must be greater than or equal to 400
            errorStatus=600    | errorStatus: must be less than or equal to 599
            tailRate=2         | tailRate: must be less than or equal to 1
            tailMs=3600000     | tailMs: must be less than or equal to 60000
            closeRate=1.5      | closeRate: must be less than or equal to 1
            dribbleMs=60001    | dribbleMs: must be less than or equal to 60000
            faultTarget=users  | faultTarget[0]: must be one of [orders, products, accounts]
            """)
    void knobBeyondItsLimitIs400NamingTheLimit(String query, String detail) throws IOException {
        Answer answer = get("?" + query);
        assertThat(answer.status()).isEqualTo(400);
        assertThat(answer.contentType()).startsWith("application/problem+json");
        assertThat(answer.body()).contains(detail);
    }

    @Test
    void callerClosingBeforeTheAnswerIsCountedAbandoned() throws Exception {
        double before = count("downstream.requests.abandoned");
        try (Socket socket = send("?latencyMs=400", null)) {
            awaitInFlight();
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> count("downstream.requests.abandoned") == before + 1);
    }

    @Test
    void callerResettingBeforeTheAnswerIsCountedAbandoned() throws Exception {
        double before = count("downstream.requests.abandoned");
        try (Socket socket = send("?latencyMs=400", null)) {
            awaitInFlight();
            socket.setSoLinger(true, 0);
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> count("downstream.requests.abandoned") == before + 1);
    }

    @Test
    void answerAfterTheCallersBudgetIsCountedLateButNotAbandoned() throws Exception {
        double abandoned = count("downstream.requests.abandoned");
        double late = count("downstream.requests.late");
        try (Socket socket = send("?latencyMs=300", 50L)) {
            assertThat(new String(socket.getInputStream().readNBytes(12), StandardCharsets.US_ASCII))
                    .isEqualTo("HTTP/1.1 200");
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> count("downstream.requests.late") == late + 1);
        assertThat(count("downstream.requests.abandoned")).isEqualTo(abandoned);
    }

    @Test
    void answerWithinTheCallersBudgetIsNotLate() throws Exception {
        double late = count("downstream.requests.late");
        try (Socket socket = send("?latencyMs=0", 30_000L)) {
            assertThat(new String(socket.getInputStream().readNBytes(12), StandardCharsets.US_ASCII))
                    .isEqualTo("HTTP/1.1 200");
        }
        assertThat(count("downstream.requests.late")).isEqualTo(late);
    }

    /** A minute's latency asked, a 100 ms budget sent: the request ends (closed, unanswered) about a second later. */
    @Test
    void workPastTheCallersBudgetIsStoppedAfterTheGrace() throws Exception {
        double late = count("downstream.requests.late");
        try (Socket socket = send("?latencyMs=60000", 100L)) {
            socket.setSoTimeout(30_000);   // far below the asked minute: a downstream that sleeps on fails here
            assertThat(socket.getInputStream().read()).as("end of stream, no answer").isEqualTo(-1);
        }
        assertThat(count("downstream.requests.late")).isEqualTo(late + 1);
    }

    /** The same for a slow body: the dribble stops too, with the body cut short. */
    @Test
    void aDribbledBodyPastTheCallersBudgetIsCutShort() throws Exception {
        String whole = get("?latencyMs=0").body();
        try (Socket socket = send("?latencyMs=0&dribbleMs=60000", 100L)) {
            socket.setSoTimeout(30_000);
            String received = new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
            assertThat(received).startsWith("HTTP/1.1 200").doesNotEndWith(whole.substring(whole.length() - 20));
        }
    }

    @Test
    void budgetThatIsNotANumberIs400() throws IOException {
        HttpGet get = new HttpGet(url(""));
        get.addHeader("X-Fanout-Budget-Ms", "soon");
        client.execute(get, response -> {
            assertThat(response.getCode()).isEqualTo(400);
            assertThat(EntityUtils.toString(response.getEntity())).contains("X-Fanout-Budget-Ms: 'soon' is not a whole number");
            return null;
        });
    }

    /** Waits until the request is being served (it has reached the controller), so that closing now is "before the answer". */
    private void awaitInFlight() {
        await().atMost(Duration.ofSeconds(10))
                .until(() -> registry.get("downstream.requests.in.flight").gauge().value() >= 1);
    }

    private double count(String name) {
        return registry.counter(name).count();
    }

    /** A raw request on its own connection, so that the test decides when and how the connection closes. */
    private Socket send(String query, Long budgetMs) throws IOException {
        Socket socket = new Socket("localhost", port);
        OutputStream out = socket.getOutputStream();
        out.write(("GET " + PATH + query + " HTTP/1.1\r\nHost: localhost\r\n"
                + (budgetMs == null ? "" : "X-Fanout-Budget-Ms: " + budgetMs + "\r\n") + "\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        out.flush();
        return socket;
    }

    private Answer get(String query) throws IOException {
        return client.execute(new HttpGet(url(query)), response -> new Answer(response.getCode(),
                response.getEntity().getContentType(), EntityUtils.toString(response.getEntity())));
    }

    private String url(String query) {
        return "http://localhost:" + port + PATH + query;
    }

    private record Answer(int status, String contentType, String body) {
    }
}
