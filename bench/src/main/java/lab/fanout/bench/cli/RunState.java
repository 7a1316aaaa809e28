package lab.fanout.bench.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import lab.fanout.bench.model.ServiceDefaults;
import lab.fanout.bench.system.Processes;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * What {@code ./lab up} left running, as {@code .lab/run/system.json} (scripts read it with jq), e.g.
 * {@code {"knobs": "--profile virtual", "processes": {"main-service": {"pid": 4242, "port": 2222, "managementPort":
 * 9222}, ...}}}. A pid only counts while its process still runs the same program, so a stale file (after a reboot, a
 * kill) never makes {@code down} signal an unrelated process.
 */
@JsonAutoDetect(fieldVisibility = JsonAutoDetect.Visibility.ANY)
final class RunState {

    static final String PROMETHEUS = "prometheus";
    static final String ZIPKIN = "zipkin";
    /** Started beside the four services, not one of them. */
    private static final List<String> EXTRAS = List.of(PROMETHEUS, ZIPKIN);
    private static final JsonMapper JSON = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

    /** @param managementPort the actuator's port; null for prometheus and zipkin */
    record Entry(long pid, int port, Integer managementPort) {
    }

    private final transient Path file;
    /** The options {@code ./lab up} was given, as typed. */
    private String knobs;
    private Map<String, Entry> processes = new LinkedHashMap<>();

    private RunState(Path file) {
        this.file = file;
    }

    static RunState load(Workspace ws) {
        RunState state = new RunState(ws.runDir().resolve("system.json"));
        try {
            String json = Files.isRegularFile(state.file) ? Files.readString(state.file) : "{}";
            return JSON.readerForUpdating(state).readValue(json);
        } catch (IOException | JacksonException e) {
            throw new IllegalStateException("cannot read " + state.file + " (" + e.getMessage() + "); if ./lab up's"
                    + " services are gone, remove it", e);
        }
    }

    void put(String name, long pid, int port, Integer managementPort) {
        processes.put(name, new Entry(pid, port, managementPort));
    }

    void knobs(String knobs) {
        this.knobs = knobs;
    }

    String knobs() {
        return knobs == null ? "?" : knobs;
    }

    void remove(String name) {
        processes.remove(name);
    }

    Optional<Integer> port(String name) {
        return Optional.ofNullable(processes.get(name)).map(Entry::port);
    }

    Optional<Integer> managementPort(String name) {
        return Optional.ofNullable(processes.get(name)).map(Entry::managementPort);
    }

    /** @return the live process recorded for {@code name}, if it still runs that program */
    Optional<ProcessHandle> process(String name) {
        String program = switch (name) {
            case PROMETHEUS -> PROMETHEUS;
            case ZIPKIN -> "zipkin-server.jar";
            default -> name + ".jar";
        };
        return Optional.ofNullable(processes.get(name)).flatMap(e -> ProcessHandle.of(e.pid()))
                .filter(ProcessHandle::isAlive)
                .filter(h -> h.info().commandLine().map(c -> c.contains(program)).orElse(true));
    }

    /** @return the services (and prometheus, zipkin) with a live process, in start order */
    Map<String, ProcessHandle> running() {
        Map<String, ProcessHandle> running = new LinkedHashMap<>();
        names().forEach(name -> process(name).ifPresent(h -> running.put(name, h)));
        return running;
    }

    /** @return the four services with a live process, in start order (prometheus and zipkin left out) */
    Map<String, ProcessHandle> runningServices() {
        Map<String, ProcessHandle> running = running();
        running.keySet().removeAll(EXTRAS);
        return running;
    }

    /** @return the four services in start order, then prometheus and zipkin */
    static List<String> names() {
        return Stream.concat(ServiceDefaults.SERVICES.stream(), EXTRAS.stream()).toList();
    }

    /**
     * Stops those of {@code names} that run, as {@code ./lab down} does: main-service alone first (its in-flight
     * requests may still call the downstreams), then prometheus, then the rest together, zipkin last (the services
     * report their last spans as they stop); SIGTERM, SIGKILL after 30 s. Then forgets all of {@code names} and saves.
     */
    void stop(List<String> names) {
        Map<String, ProcessHandle> running = running();
        running.keySet().retainAll(names);
        if (running.isEmpty()) {
            System.out.println("nothing running");
        }
        for (String first : List.of(ServiceDefaults.MAIN, PROMETHEUS)) {
            Optional.ofNullable(running.remove(first)).ifPresent(h -> {
                Processes.terminate(List.of(h));
                System.out.println("stopped " + first + " (pid " + h.pid() + ")");
            });
        }
        ProcessHandle zipkin = running.remove(ZIPKIN);
        Processes.terminate(List.copyOf(running.values()));
        running.forEach((name, h) -> System.out.println("stopped " + name + " (pid " + h.pid() + ")"));
        if (zipkin != null) {
            Processes.terminate(List.of(zipkin));
            System.out.println("stopped " + ZIPKIN + " (pid " + zipkin.pid() + ")");
        }
        names.forEach(processes::remove);
        save();
    }

    /** Writes the file, or deletes it when nothing is recorded. */
    void save() {
        try {
            Files.createDirectories(file.getParent());
            if (processes.isEmpty()) {
                Files.deleteIfExists(file);
            } else {
                Files.writeString(file, JSON.writeValueAsString(this) + "\n");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }
}
