package lab.fanout.bench.cli;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

import lab.fanout.bench.model.ServiceDefaults;

/**
 * What {@code ./lab up} left running, in {@code .lab/run/system.properties}: pid, port and management port per
 * service (pid and port of prometheus), and the knobs it was started with. A pid only counts while its process still runs the same program,
 * so a stale file (after a reboot, a kill) never makes {@code down} signal an unrelated process.
 */
final class RunState {

    static final String PROMETHEUS = "prometheus";

    private final Path file;
    private final Properties props = new Properties();

    private RunState(Path file) {
        this.file = file;
    }

    static RunState load(Workspace ws) {
        RunState state = new RunState(ws.runDir().resolve("system.properties"));
        if (Files.isRegularFile(state.file)) {
            try (Reader r = Files.newBufferedReader(state.file)) {
                state.props.load(r);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + state.file, e);
            }
        }
        return state;
    }

    void put(String name, long pid, int port) {
        props.setProperty("pid." + name, Long.toString(pid));
        props.setProperty("port." + name, Integer.toString(port));
    }

    /** @param port the service's management port (its actuator) */
    void putManagementPort(String name, int port) {
        props.setProperty("management-port." + name, Integer.toString(port));
    }

    void knobs(String knobs) {
        props.setProperty("knobs", knobs);
    }

    String knobs() {
        return props.getProperty("knobs", "?");
    }

    void remove(String name) {
        props.remove("pid." + name);
        props.remove("port." + name);
        props.remove("management-port." + name);
    }

    Optional<Integer> port(String name) {
        return Optional.ofNullable(props.getProperty("port." + name)).map(Integer::valueOf);
    }

    Optional<Integer> managementPort(String name) {
        return Optional.ofNullable(props.getProperty("management-port." + name)).map(Integer::valueOf);
    }

    Optional<Long> pid(String name) {
        return Optional.ofNullable(props.getProperty("pid." + name)).map(Long::valueOf);
    }

    /** @return the live process recorded for {@code name}, if it still runs that program */
    Optional<ProcessHandle> process(String name) {
        String program = name.equals(PROMETHEUS) ? PROMETHEUS : name + ".jar";
        return pid(name).flatMap(ProcessHandle::of).filter(ProcessHandle::isAlive)
                .filter(h -> h.info().commandLine().map(c -> c.contains(program)).orElse(true));
    }

    /** @return the services (and prometheus) with a live process, in start order */
    Map<String, ProcessHandle> running() {
        Map<String, ProcessHandle> running = new LinkedHashMap<>();
        for (String name : names()) {
            process(name).ifPresent(h -> running.put(name, h));
        }
        return running;
    }

    static List<String> names() {
        return java.util.stream.Stream.concat(ServiceDefaults.SERVICES.stream(), java.util.stream.Stream.of(PROMETHEUS)).toList();
    }

    void save() {
        try {
            Files.createDirectories(file.getParent());
            if (props.stringPropertyNames().stream().noneMatch(k -> k.startsWith("pid."))) {
                Files.deleteIfExists(file);
                return;
            }
            try (Writer w = Files.newBufferedWriter(file)) {
                props.store(w, "written by ./lab up; read by ./lab down and ./lab status");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }
}
