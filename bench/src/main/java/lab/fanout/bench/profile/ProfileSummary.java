package lab.fanout.bench.profile;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import lab.fanout.bench.model.ServerFigures;

/** The text of {@code summary.txt}: per profiled window, what was sampled, what it cost per request, and top frames. */
public final class ProfileSummary {

    private ProfileSummary() {
    }

    /**
     * One profiled window of load.
     *
     * @param name           {@code CPU} or {@code wall}
     * @param engine         what sampled, in words, e.g. {@code cpu on perf events, a sample every 10 ms of CPU time}
     * @param files          the flame graph and the collapsed stacks, relative to the output folder
     * @param seconds        the load driver's window, s; {@code answered}: requests answered in it, any status
     * @param errors         error kind to count, e.g. {@code HTTP 504}
     * @param mainCpuSeconds main-service's CPU (utime + stime from /proc) over the window, s; null when unreadable
     * @param server         main-service's own figures over the window (threads), from its actuator
     */
    public record Window(String name, String engine, List<String> files, double seconds, long answered,
                         Map<String, Long> errors, Double mainCpuSeconds, ServerFigures server,
                         CollapsedStacks stacks) {
    }

    /** @return CPU-ms per request from the CPU seconds of a window (null: unknown) and its answers, or null */
    public static Double cpuMsPerRequest(Double cpuSeconds, long answered) {
        return cpuSeconds == null || answered <= 0 ? null : cpuSeconds * 1000 / answered;
    }

    /** @param intro lines above the windows (command, target, machine); {@code top}: frames listed per window */
    public static String render(List<String> intro, List<Window> windows, int top) {
        List<String> out = new ArrayList<>(intro);
        for (Window w : windows) {
            out.add("");
            out.add(w.name() + " window: " + w.engine());
            out.add("  files: " + String.join(", ", w.files()));
            out.add(String.format(Locale.ROOT, "  load: %d answered in %.1f s (%.1f req/s)%s", w.answered(),
                    w.seconds(), w.seconds() > 0 ? w.answered() / w.seconds() : 0.0,
                    w.errors().isEmpty() ? ", no errors" : ", errors " + w.errors()));
            Double perRequest = cpuMsPerRequest(w.mainCpuSeconds(), w.answered());
            out.add(perRequest == null ? "  main-service CPU: n/a (/proc unreadable or nothing answered)"
                    : String.format(Locale.ROOT, "  main-service CPU: %.2f s over the window = %.3f CPU-ms per request"
                            + " (utime + stime from /proc; includes the profiler's own sampling)",
                            w.mainCpuSeconds(), perRequest));
            out.add("  threads of main-service (peak in the window, /actuator/prometheus): platform "
                    + count(w.server().peakPlatformThreads()) + ", virtual (mounted or queued) "
                    + count(w.server().peakVirtualThreads()));
            frames(out, w.stacks(), top, w.name().equals("CPU"));
        }
        return String.join("\n", out) + "\n";
    }

    /** @return the frame lines of {@link #render} for a recorded profile ({@code --summarize}), under its name */
    public static String renderStacks(String name, CollapsedStacks stacks, int top) {
        List<String> out = new ArrayList<>(List.of(name + ":"));
        frames(out, stacks, top, true);
        return String.join("\n", out) + "\n";
    }

    /** @param byComponent whether to list the samples by component: for a CPU profile, not a wall-clock one */
    private static void frames(List<String> out, CollapsedStacks stacks, int top, boolean byComponent) {
        out.add("  top frames by self samples, of " + stacks.total() + " samples:");
        if (stacks.total() == 0) {
            out.add("    (no samples: was main-service busy in this window?)");
            return;
        }
        stacks.topSelf(top).forEach(f -> out.add(line(f)));
        if (byComponent) {
            out.add("  CPU by component (per sample the innermost frame of a known library; the JDK, JVM and kernel"
                    + " code it calls counts as its):");
            stacks.byComponent().forEach(f -> out.add(line(f)));
        }
        out.add("  top Java frames (per sample its deepest Java method, whatever JVM or kernel code ran below it):");
        stacks.topJava(top).forEach(f -> out.add(line(f)));
    }

    private static String line(CollapsedStacks.Frame f) {
        return String.format(Locale.ROOT, "    %5.1f%% %7d  %s", 100 * f.share(), f.samples(), f.frame());
    }

    private static String count(Double v) {
        return v == null ? "n/a" : Long.toString(Math.round(v));
    }
}
