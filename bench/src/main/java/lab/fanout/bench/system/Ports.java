package lab.fanout.bench.system;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Local TCP ports: free ones from the OS, and who holds a busy one. */
public final class Ports {

    private static final Pattern SS_PID = Pattern.compile("pid=(\\d+)");

    private Ports() {
    }

    /** @return one free port per name, all held open together while picking so that no two are the same */
    static Map<String, Integer> free(Collection<String> names) {
        List<ServerSocket> held = new ArrayList<>();
        try {
            Map<String, Integer> ports = new LinkedHashMap<>();
            for (String name : names) {
                held.add(new ServerSocket(0));
                ports.put(name, held.getLast().getLocalPort());
            }
            return ports;
        } catch (IOException e) {
            throw new IllegalStateException("cannot find free ports", e);
        } finally {
            for (ServerSocket s : held) {
                try {
                    s.close();
                } catch (IOException ignored) {
                    // closing a listening socket we own: nothing to recover
                }
            }
        }
    }

    /**
     * @return {@code ports}, once each was seen free
     * @throws IllegalStateException naming the busy port, its service and the process holding it if {@code ss} finds it
     */
    static Map<String, Integer> requireFree(Map<String, Integer> ports) {
        ports.forEach((service, port) -> {
            if (!isFree(port)) {
                throw new IllegalStateException("port " + port + " (" + service + ") is busy" + holder(port)
                        + ". Stop that process (if it is from ./lab up: ./lab down).");
            }
        });
        return ports;
    }

    public static boolean isFree(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** @return ", held by pid N (command line)" when {@code ss -ltnp} names the listener, else "" (no ss: no name) */
    static String holder(int port) {
        return Processes.output(null, Duration.ofSeconds(5), "ss", "-Hltnp", "sport = :" + port).map(SS_PID::matcher)
                .filter(Matcher::find).map(m -> Long.parseLong(m.group(1)))
                .map(pid -> ", held by pid " + pid + ProcessHandle.of(pid).flatMap(h -> h.info().commandLine())
                        .map(c -> " (" + (c.length() <= 160 ? c : c.substring(0, 157) + "...") + ")").orElse(""))
                .orElse("");
    }
}
