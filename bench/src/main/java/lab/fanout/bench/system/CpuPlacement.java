package lab.fanout.bench.system;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Where main-service runs (issue 66): {@code all} (the shared bed, no cgroup), N whole cores by cpuset (the last N
 * cores; the rest form a {@code load} cpuset for downstreams, Prometheus, Zipkin and the load driver) or a fraction
 * of a core by CFS quota over a 100,000 µs period, like a pod's {@code limits.cpu}.
 *
 * @param cpus the parsed {@code --main-cpus} value in cores; 0 means {@code all}
 * @param whole true for a cpuset of whole cores, false for a quota
 */
public record CpuPlacement(double cpus, boolean whole) {
    /** CFS period in µs (the kernel's default, and Kubernetes'). */
    public static final int PERIOD_US = 100_000;

    /**
     * Parses {@code all}, a whole number of cores or a fraction (0.5, 1.5).
     *
     * @throws IllegalArgumentException naming the valid values, when whole cores leave none for the load side
     */
    public static CpuPlacement parse(String value, int machineCores) {
        if (value == null || value.equals("all")) return ALL;
        double cpus;
        try {
            cpus = Double.parseDouble(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--main-cpus " + value + ": pass all, a whole number of cores (1.."
                    + (machineCores - 1) + ") or a fraction of cores such as 0.5 or 1.5");
        }
        if (!(cpus > 0)) throw new IllegalArgumentException("--main-cpus " + value + ": must be above 0 (or all)");
        // "1" is a cpuset of one core, "1.0" a quota of one core: a decimal point says quota, like limits.cpu's "1.0"
        boolean whole = !value.contains(".");
        if (whole && cpus >= machineCores) {
            throw new IllegalArgumentException("--main-cpus " + value + ": this machine has " + machineCores
                    + " cores and whole cores leave none for the load side; pass 1.." + (machineCores - 1)
                    + ", a fraction such as 0.5, or all");
        }
        if (whole && cpus != Math.rint(cpus)) {
            throw new IllegalArgumentException("--main-cpus " + value + ": not a number of cores");
        }
        if (!whole && cpus > machineCores) {
            throw new IllegalArgumentException("--main-cpus " + value + ": a quota above the machine's "
                    + machineCores + " cores limits nothing; pass at most " + machineCores + " or all");
        }
        return new CpuPlacement(cpus, whole);
    }

    /** Everything on every core: the shared bed, which measures the machine rather than main-service. */
    public static final CpuPlacement ALL = new CpuPlacement(0, true);

    /** @return the value as {@code --main-cpus} takes it: {@code all}, {@code 1}, {@code 0.5} */
    public String label() {
        return shared() ? "all" : whole ? "" + (int) cpus : "" + cpus;
    }

    /**
     * @return where main-service and the load side run, for logs, tables and environment.txt, e.g. {@code main-service
     *         on core 1 (cpuset), the load side on core 0}
     */
    public String describe(int machineCores) {
        if (shared()) {
            return "shared: main-service, downstreams and load driver on all " + machineCores + " cores (measures the"
                    + " machine, not main-service alone)";
        }
        if (whole) {
            return "main-service on core" + (cpus > 1 ? "s " : " ") + mainCores(machineCores) + " (cpuset), the load"
                    + " side (downstreams, load driver, Prometheus, Zipkin) on " + loadCores(machineCores);
        }
        return "main-service at " + label() + " CPU of quota (" + quotaUs() + "/" + PERIOD_US + " µs, like a pod's"
                + " limits.cpu " + Math.round(cpus * 1000) + "m) on all " + machineCores + " cores, which the load side"
                + " shares";
    }

    public boolean shared() {
        return cpus == 0;
    }

    /** main-service's cpuset, e.g. {@code 1} or {@code 2-3}: the last cores, so that core 0 stays for the load. */
    public String mainCores(int machineCores) {
        int first = machineCores - (int) cpus;
        return first == machineCores - 1 ? "" + first : first + "-" + (machineCores - 1);
    }

    /** The load side's cpuset: the cores main-service does not get. */
    public String loadCores(int machineCores) {
        int last = machineCores - (int) cpus - 1;
        return last == 0 ? "0" : "0-" + last;
    }

    /** CFS quota in µs per {@link #PERIOD_US}. */
    public long quotaUs() {
        return Math.round(cpus * PERIOD_US);
    }

    /**
     * Creates {@code fanout-lab-<id>/main} (and {@code /load} for whole cores) under a cgroup v1 root holding
     * {@code cpuset/} and {@code cpu/}, or a v2 root ({@code cgroup.controllers} present), and writes cpus or quota.
     *
     * @return the group directories a process must join (v1: one per controller), main's first
     * @throws IOException naming the missing controller or the unwritable path and the fix
     */
    public List<Path> create(Path root, String id, int machineCores) throws IOException {
        if (shared()) return List.of();
        String group = "fanout-lab-" + id;
        boolean v2 = Files.exists(root.resolve("cgroup.controllers"));
        String controller = whole ? "cpuset" : "cpu";
        if (v2) return createV2(root, group, controller, machineCores);
        Path hierarchy = root.resolve(controller);
        if (!Files.isDirectory(hierarchy)) {
            throw new IOException("no cgroup v1 " + controller + " controller at " + hierarchy
                    + "; mount it (mount -t cgroup -o " + controller + " none " + hierarchy
                    + ") or pass --main-cpus all");
        }
        Path parent = mkdir(hierarchy.resolve(group));
        if (!whole) {
            Path main = mkdir(parent.resolve("main"));
            Files.writeString(main.resolve("cpu.cfs_period_us"), "" + PERIOD_US);
            Files.writeString(main.resolve("cpu.cfs_quota_us"), "" + quotaUs());
            return List.of(main);
        }
        String mems = Files.readString(hierarchy.resolve("cpuset.mems")).trim();
        Files.writeString(parent.resolve("cpuset.cpus"), "0-" + (machineCores - 1));
        Files.writeString(parent.resolve("cpuset.mems"), mems);
        Path main = mkdir(parent.resolve("main"));
        Files.writeString(main.resolve("cpuset.mems"), mems);
        Files.writeString(main.resolve("cpuset.cpus"), mainCores(machineCores));
        Path load = mkdir(parent.resolve("load"));
        Files.writeString(load.resolve("cpuset.mems"), mems);
        Files.writeString(load.resolve("cpuset.cpus"), loadCores(machineCores));
        return List.of(main, load);
    }

    private List<Path> createV2(Path root, String group, String controller, int machineCores) throws IOException {
        String have = Files.readString(root.resolve("cgroup.controllers"));
        if (!List.of(have.trim().split("\\s+")).contains(controller)) {
            throw new IOException("cgroup v2 at " + root + " lacks the " + controller + " controller ("
                    + "cgroup.controllers: " + have.trim() + "); enable it, or pass --main-cpus all");
        }
        Path parent = mkdir(root.resolve(group));
        Files.writeString(parent.resolve("cgroup.subtree_control"), "+" + controller);
        Path main = mkdir(parent.resolve("main"));
        if (!whole) {
            Files.writeString(main.resolve("cpu.max"), quotaUs() + " " + PERIOD_US);
            return List.of(main);
        }
        Files.writeString(main.resolve("cpuset.cpus"), mainCores(machineCores));
        Path load = mkdir(parent.resolve("load"));
        Files.writeString(load.resolve("cpuset.cpus"), loadCores(machineCores));
        return List.of(main, load);
    }

    private static Path mkdir(Path dir) throws IOException {
        try {
            return Files.createDirectories(dir);
        } catch (IOException e) {
            throw new IOException("cannot create cgroup " + dir + " (" + e.getMessage()
                    + "): run ./lab as root with a writable cgroupfs, or pass --main-cpus all", e);
        }
    }
}
