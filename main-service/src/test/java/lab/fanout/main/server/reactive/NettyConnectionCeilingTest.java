package lab.fanout.main.server.reactive;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The connection ceiling on Reactor Netty against a lowered limit of 2: the third client waits, unanswered, in the
 * kernel's accept queue while two connections stay open, and is served as soon as one of them closes.
 */
class NettyConnectionCeilingTest {

    private static final int CEILING = 2;

    private final NettyConnectionCeiling ceiling = new NettyConnectionCeiling(CEILING);
    private final DisposableServer server = HttpServer.create().host("127.0.0.1").port(0).doOnChannelInit(ceiling)
            .handle((request, response) -> response.sendString(Mono.just("ok"))).bindNow();

    @AfterEach
    void stop() {
        server.disposeNow();
    }

    @Test
    void pastTheCeilingAClientWaitsUntilAConnectionCloses() throws IOException {
        try (Socket first = new Socket("127.0.0.1", server.port()); Socket second = new Socket("127.0.0.1",
                server.port())) {
            assertThat(exchange(first)).startsWith("HTTP/1.1 200");
            assertThat(exchange(second)).startsWith("HTTP/1.1 200");
            assertThat(ceiling.open()).isEqualTo(CEILING);
            pastTheCeiling(first);
        }
    }

    /** The third client connects (the kernel completes its handshake) once two connections are open. */
    private void pastTheCeiling(Socket first) throws IOException {
        try (Socket third = new Socket("127.0.0.1", server.port())) {
            third.setSoTimeout(500);
            send(third);
            assertThatThrownBy(() -> statusLine(third)).as("the third client, past the ceiling")
                    .isInstanceOf(SocketTimeoutException.class);
            assertThat(ceiling.open()).as("open connections").isEqualTo(CEILING);

            first.close();
            third.setSoTimeout(5_000);
            assertThat(statusLine(third)).as("the third client, once a connection closed").startsWith("HTTP/1.1 200");
            await().atMost(Duration.ofSeconds(5)).until(() -> ceiling.open() == CEILING);
        }
    }

    @Test
    void refusesACeilingBelowOne() {
        assertThatThrownBy(() -> new NettyConnectionCeiling(0)).hasMessageContaining("at least 1, was 0");
    }

    /** A keep-alive GET and its status line; the connection stays open. */
    private static String exchange(Socket socket) throws IOException {
        socket.setSoTimeout(5_000);
        send(socket);
        return statusLine(socket);
    }

    private static void send(Socket socket) throws IOException {
        socket.getOutputStream().write("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        socket.getOutputStream().flush();
    }

    /** Reads the response's status line and the rest of what has arrived (a 2-byte body: one read holds it all). */
    private static String statusLine(Socket socket) throws IOException {
        InputStream in = socket.getInputStream();
        byte[] buffer = new byte[4096];
        int read = in.read(buffer);
        String response = new String(buffer, 0, Math.max(read, 0), StandardCharsets.US_ASCII);
        return response.lines().findFirst().orElse("");
    }
}
