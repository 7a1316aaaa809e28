package lab.fanout.main.web;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import lab.fanout.main.client.Downstream;

/**
 * A fake downstream on a raw socket that sees what WireMock cannot: a caller that closes the connection while its
 * request is still being worked on (a cancelled call). It answers every GET with one body after a delay: the next
 * scripted delay if any ({@link #script}), else the request's {@code latencyMs} plus, with probability
 * {@code tailRate}, {@code tailMs}, as the real downstreams do. While it waits it reads the connection: end-of-stream or
 * a reset means the caller gave up, counted in {@link #abandoned()}, and nothing is answered. HTTP/1.1 keep-alive, one
 * request at a time per connection (HttpClient 5 does not pipeline). Loopback only.
 */
final class TailDownstream implements AutoCloseable {

    private final ServerSocket server;
    private final byte[] body;
    private final Queue<Integer> script = new ConcurrentLinkedQueue<>();
    private final AtomicInteger received = new AtomicInteger();
    private final AtomicInteger answered = new AtomicInteger();
    private final AtomicInteger abandoned = new AtomicInteger();

    /** @param body what every request gets, e.g. a catalogue's JSON */
    TailDownstream(String body) {
        this.body = body.getBytes(StandardCharsets.UTF_8);
        try {
            server = new ServerSocket(0, 1000, InetAddress.getLoopbackAddress());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Thread.ofVirtual().name("tail-downstream-accept").start(this::accept);
    }

    /** @return a fake that answers every GET with {@code downstream}'s own catalogue */
    static TailDownstream serving(Downstream downstream) {
        try {
            return new TailDownstream(Files.readString(catalogueFile(downstream)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @return the catalogue.json of {@code downstream}'s service module, absolute (tests run in main-service/) */
    static Path catalogueFile(Downstream downstream) {
        return Path.of("..", downstream.serviceName(), "src", "main", "resources", "catalogue.json").toAbsolutePath();
    }

    String baseUrl() {
        return "http://127.0.0.1:" + server.getLocalPort();
    }

    /** The next requests wait these many ms, in order, whatever their query asks. */
    void script(Integer... delaysMs) {
        script.addAll(List.of(delaysMs));
    }

    void reset() {
        script.clear();
        received.set(0);
        answered.set(0);
        abandoned.set(0);
    }

    int received() {
        return received.get();
    }

    int answered() {
        return answered.get();
    }

    /** @return requests whose caller closed the connection before the answer was due */
    int abandoned() {
        return abandoned.get();
    }

    @Override
    public void close() throws IOException {
        server.close();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket socket = server.accept();
                Thread.ofVirtual().start(() -> serve(socket));
            } catch (IOException e) {
                return;   // closed
            }
        }
    }

    private void serve(Socket socket) {
        try (socket; InputStream in = new BufferedInputStream(socket.getInputStream());
             OutputStream out = socket.getOutputStream()) {
            String head;
            while ((head = readHead(socket, in)) != null) {
                received.incrementAndGet();
                if (!waitOut(socket, in, delayMs(head))) {
                    abandoned.incrementAndGet();
                    return;
                }
                out.write(("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + body.length
                        + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                out.write(body);
                out.flush();
                answered.incrementAndGet();
            }
        } catch (IOException e) {
            // the caller went away between requests
        }
    }

    private int delayMs(String head) {
        Integer scripted = script.poll();
        if (scripted != null) {
            return scripted;
        }
        Map<String, String> query = query(head);
        int latency = Integer.parseInt(query.getOrDefault("latencyMs", "0"));
        double tailRate = Double.parseDouble(query.getOrDefault("tailRate", "0"));
        int tail = Integer.parseInt(query.getOrDefault("tailMs", "0"));
        return latency + (ThreadLocalRandom.current().nextDouble() < tailRate ? tail : 0);
    }

    /** @return false if the caller closed the connection (or reset it) within {@code delayMs} */
    private static boolean waitOut(Socket socket, InputStream in, int delayMs) throws IOException {
        long end = System.nanoTime() + delayMs * 1_000_000L;
        while (true) {
            long left = (end - System.nanoTime()) / 1_000_000L;
            if (left <= 0) {
                return true;
            }
            socket.setSoTimeout((int) left);
            try {
                if (in.read() < 0) {
                    return false;
                }
            } catch (SocketTimeoutException e) {
                return true;
            } catch (IOException e) {
                return false;   // reset
            }
        }
    }

    /** @return the request line and headers, or null at end-of-stream before a request */
    private static String readHead(Socket socket, InputStream in) throws IOException {
        socket.setSoTimeout(0);   // an idle keep-alive connection waits for its next request as long as the caller likes
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        int b;
        while ((b = in.read()) >= 0) {
            head.write(b);
            matched = (b == "\r\n\r\n".charAt(matched)) ? matched + 1 : (b == '\r' ? 1 : 0);
            if (matched == 4) {
                return head.toString(StandardCharsets.US_ASCII);
            }
        }
        return null;
    }

    private static Map<String, String> query(String head) {
        String target = head.substring(head.indexOf(' ') + 1, head.indexOf(' ', head.indexOf(' ') + 1));
        String query = URI.create(target).getRawQuery();
        return query == null ? Map.of() : Stream.of(query.split("&")).map(pair -> pair.split("=", 2))
                .collect(Collectors.toMap(pair -> pair[0], pair -> pair.length > 1 ? pair[1] : "", (a, b) -> b));
    }
}
