import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Executors;

import com.sun.net.httpserver.HttpServer;

/**
 * A downstream as a process of its own, for tests that freeze it for real (SIGSTOP) and let it go on (SIGCONT):
 * {@code java CatalogueServer.java <catalogue.json>} answers every GET with that file, at once, on a free loopback
 * port, which it prints as its first line. Run from source (JEP 330), so it needs nothing but the JDK.
 */
public class CatalogueServer {

    public static void main(String[] args) throws IOException {
        byte[] body = Files.readAllBytes(Path.of(args[0]));
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1000);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/", exchange -> {
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
        System.out.println(server.getAddress().getPort());
        System.out.flush();
    }
}
