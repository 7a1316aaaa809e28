package lab.fanout.main.web;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

import lab.fanout.main.client.Downstream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * On Reactor Netty, a keep-alive connection goes on answering after a request that was queued behind another one
 * and answered at once, on the event loop (a 400, a breaker-open or overloaded 503: no thread hop). Reactor Netty
 * 1.3.7 stopped reading such a connection (reactor/reactor-netty#4361, fixed in 1.3.8): the client's next request
 * lay unread until it gave up, which `NettyBreakerIntegrationTest` hit about once in two runs on a loaded machine (its
 * keep-alive client sends the next request as the last answer arrives, before the server has ended that exchange).
 * <p>
 * Pipelining the two requests (one write, as HTTP/1.1 allows) queues the second deterministically: the first runs on a
 * virtual thread (a blocking strategy), the second is a synchronous 400. The JDK's HttpClient does not pipeline,
 * hence the raw socket.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ActiveProfiles(value = "netty", inheritProfiles = false)
class NettyKeepAliveIntegrationTest {

    private static final String PATH = "/backoffice/api/v1/backoffice/orders?latencyMs=0&concurrency=";
    /** Far above an answer here (tens of ms on a loaded machine); the old code never answered. */
    private static final int ANSWER_TIMEOUT_MS = 5_000;

    static TailDownstream orders;
    static TailDownstream products;
    static TailDownstream accounts;

    @LocalServerPort
    int port;

    @DynamicPropertySource
    static void downstreamUrls(DynamicPropertyRegistry registry) {
        registry.add("fanout.downstreams.orders", orders::baseUrl);
        registry.add("fanout.downstreams.products", products::baseUrl);
        registry.add("fanout.downstreams.accounts", accounts::baseUrl);
    }

    @BeforeAll
    static void startDownstreams() {
        orders = TailDownstream.serving(Downstream.ORDERS);
        products = TailDownstream.serving(Downstream.PRODUCTS);
        accounts = TailDownstream.serving(Downstream.ACCOUNTS);
    }

    @AfterAll
    static void stopDownstreams() throws Exception {
        orders.close();
        products.close();
        accounts.close();
    }

    @Test
    void answersTheNextRequestAfterAQueuedOneAnsweredOnTheEventLoop() throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(ANSWER_TIMEOUT_MS);
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            out.write((get("sequential") + get("noSuchStrategy")).getBytes(StandardCharsets.US_ASCII));
            out.flush();
            assertThat(statusOf(in)).as("the first, fanned out on a virtual thread").isEqualTo(200);
            assertThat(statusOf(in)).as("the queued one, refused on the event loop").isEqualTo(400);

            out.write(get("sequential").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            assertThat(statusOf(in)).as("the next request on the same connection").isEqualTo(200);
        }
    }

    private String get(String strategy) {
        return "GET " + PATH + strategy + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n\r\n";
    }

    /** Reads one HTTP/1.1 answer (status line, headers, a Content-Length body) and returns its status. */
    private static int statusOf(InputStream in) throws IOException {
        String head;
        try {
            head = readHead(in);
        } catch (SocketTimeoutException e) {
            return fail("no answer within %d ms on the kept-alive connection", ANSWER_TIMEOUT_MS);
        }
        int length = 0;
        for (String line : head.split("\r\n")) {
            if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                length = Integer.parseInt(line.substring(line.indexOf(':') + 1).trim());
            }
        }
        assertThat(head).as("a Content-Length answer, not chunked").doesNotContainIgnoringCase("chunked");
        in.readNBytes(length);
        return Integer.parseInt(head.split(" ", 3)[1]);
    }

    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;   // of "\r\n\r\n"
        while (matched < 4) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("connection closed by main-service after " + head);
            }
            head.write(b);
            matched = (b == '\r' && matched % 2 == 0) || (b == '\n' && matched % 2 == 1) ? matched + 1 : 0;
        }
        return head.toString(StandardCharsets.US_ASCII);
    }
}
