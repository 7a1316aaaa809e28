package lab.fanout.bench.system;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import lab.fanout.bench.model.ServiceDefaults;

/**
 * The cgroups of one {@link CpuPlacement} while its processes run (issue 66): main-service's group, and for whole
 * cores the load side's (downstreams, Prometheus, Zipkin, the load driver). A process joins its group before its
 * first instruction ({@link #main}, {@link #load}: {@code sh} writes its own pid to {@code cgroup.procs}, then
 * {@code exec}s the command, keeping the pid), so the JVM sizes itself (availableProcessors, carriers, common pool)
 * inside the limit, as in a pod. Groups are named {@code fanout-lab-<creator pid>-<n>}: the lab touches no other.
 */
public final class CpuGroups implements AutoCloseable {

    /** The cgroup filesystem; LAB_CGROUP_ROOT points tests elsewhere. */
    public static final Path ROOT = Path.of(System.getenv().getOrDefault("LAB_CGROUP_ROOT", "/sys/fs/cgroup"));
    private static final Path REAL_ROOT = Path.of("/sys/fs/cgroup");
    private static final String PREFIX = "fanout-lab-";
    private static final String JOIN = "echo $$ > \"$1/cgroup.procs\" && shift && exec \"$@\"";
    private static final AtomicInteger SEQUENCE = new AtomicInteger();
    /** The groups whose load side this CLI's other processes join ({@link #onLoadSide}); none when shared. */
    private static volatile CpuGroups active;

    private final CpuPlacement placement;
    private final Path main;
    private final Path load;
    private final List<Path> parents;

    private CpuGroups(CpuPlacement placement, List<Path> groups) {
        this.placement = placement;
        this.main = groups.isEmpty() ? null : groups.getFirst();
        this.load = groups.size() > 1 ? groups.get(1) : null;
        this.parents = groups.stream().map(Path::getParent).distinct().toList();
    }

    /**
     * Makes the groups of {@code placement} under {@link #ROOT} (none for {@code all}) after removing the lab's
     * stale ones, and makes them the load side of this CLI's later processes.
     *
     * @throws IllegalStateException the groups cannot be made (message: the missing controller or right, the fix)
     */
    public static CpuGroups create(CpuPlacement placement) {
        return create(placement, ROOT);
    }

    static CpuGroups create(CpuPlacement placement, Path root) {
        if (placement.shared()) {
            return new CpuGroups(placement, List.of());
        }
        removeStale(root);
        String id = ProcessHandle.current().pid() + "-" + SEQUENCE.incrementAndGet();
        try {
            CpuGroups groups = new CpuGroups(placement, placement.create(root, id, Environment.cores()));
            active = groups;
            return groups;
        } catch (IOException e) {
            throw new IllegalStateException("--main-cpus " + placement.label() + ": " + e.getMessage(), e);
        }
    }

    public CpuPlacement placement() {
        return placement;
    }

    /** @return {@code command}, started in main-service's group */
    public List<String> main(List<String> command) {
        return join(main, command);
    }

    /** @return {@code command}, started in the load side's group (unconfined under a quota or {@code all}) */
    public List<String> load(List<String> command) {
        return join(load, command);
    }

    /** @return {@code command} on the load side of the placement this CLI runs, if any ({@link #create}) */
    public static List<String> onLoadSide(List<String> command) {
        CpuGroups groups = active;
        return groups == null ? command : groups.load(command);
    }

    private static List<String> join(Path group, List<String> command) {
        if (group == null) {
            return command;
        }
        List<String> joined = new ArrayList<>(List.of("sh", "-c", JOIN, "sh", group.toString()));
        joined.addAll(command);
        return joined;
    }

    /**
     * Checks that each started service is in its group: a run never goes on silently without its placement.
     *
     * @param pids service name to pid, main-service's under {@link ServiceDefaults#MAIN}
     * @throws IllegalStateException one is not (message: the service, its pid and the group)
     */
    void verify(Map<String, Long> pids) {
        pids.forEach((service, pid) -> {
            Path group = service.equals(ServiceDefaults.MAIN) ? main : load;
            if (group == null) {
                return;
            }
            String procs;
            try {
                procs = Files.exists(group.resolve("cgroup.procs")) ? Files.readString(group.resolve("cgroup.procs"))
                        : "";
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + group.resolve("cgroup.procs"), e);
            }
            if (procs.lines().map(String::trim).noneMatch(("" + pid)::equals)) {
                throw new IllegalStateException(service + " (pid " + pid + ") is not in its cgroup " + group
                        + " (cgroup.procs: " + procs.trim().replace('\n', ' ') + "): --main-cpus "
                        + placement.label() + " did not apply");
            }
        });
    }

    /** Removes the groups once their processes are gone (up to 10 s); one still busy is left, said on stderr. */
    @Override
    public void close() {
        if (active == this) {
            active = null;
        }
        Poll.reached(Duration.ofSeconds(10), Duration.ofMillis(100), () -> parents.stream().allMatch(CpuGroups::empty));
        parents.forEach(CpuGroups::remove);
    }

    /**
     * Removes the lab's groups whose creator has exited and that hold no process: those {@code ./lab up} left for
     * its services, once {@code ./lab down} stopped them, and those of a CLI that was killed.
     */
    public static void removeStale() {
        removeStale(ROOT);
    }

    static void removeStale(Path root) {
        for (Path hierarchy : List.of(root, root.resolve("cpuset"), root.resolve("cpu"))) {
            if (!Files.isDirectory(hierarchy)) {
                continue;
            }
            try (Stream<Path> groups = Files.list(hierarchy)) {
                groups.filter(g -> g.getFileName().toString().startsWith(PREFIX)).filter(CpuGroups::creatorGone)
                        .filter(CpuGroups::empty).forEach(CpuGroups::remove);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot list " + hierarchy, e);
            }
        }
    }

    private static boolean creatorGone(Path group) {
        String pid = group.getFileName().toString().substring(PREFIX.length()).split("-")[0];
        try {
            return ProcessHandle.of(Long.parseLong(pid)).map(h -> !h.isAlive()).orElse(true);
        } catch (NumberFormatException e) {
            return false;   // not a name the lab gives: not the lab's
        }
    }

    /** @return whether no process is in {@code group} or its children */
    private static boolean empty(Path group) {
        try (Stream<Path> all = Files.walk(group)) {
            return all.filter(p -> p.getFileName().toString().equals("cgroup.procs")).allMatch(p -> {
                try {
                    return Files.readString(p).isBlank();
                } catch (IOException e) {
                    return true;   // gone meanwhile
                }
            });
        } catch (IOException e) {
            return true;
        }
    }

    /** rmdir of the children, then the group: a cgroup's files go with its directory, and only then. */
    private static void remove(Path group) {
        try (Stream<Path> all = Files.walk(group)) {
            List<Path> dirs = all.filter(Files::isDirectory).sorted(Comparator.reverseOrder()).toList();
            for (Path dir : dirs) {
                removeDirectory(dir);
            }
        } catch (IOException e) {
            System.err.println("warning: cannot remove cgroup " + group + " (" + e.getMessage() + "); remove it with"
                    + " rmdir once its processes have exited");
        }
    }

    /** A real cgroup directory goes with rmdir alone; a test's plain directory needs its files deleted first. */
    private static void removeDirectory(Path dir) throws IOException {
        if (!dir.startsWith(REAL_ROOT)) {
            try (Stream<Path> files = Files.list(dir)) {
                for (Path f : files.filter(Files::isRegularFile).toList()) {
                    Files.delete(f);
                }
            }
        }
        Files.delete(dir);
    }
}
