package lab.fanout.bench.profile;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;

/**
 * async-profiler's collapsed output ({@code file=x.collapsed}): one line per distinct stack,
 * {@code root;caller;...;leaf COUNT}, frames separated by {@code ;}, the sample count after the last space (a frame
 * may hold spaces, e.g. a thread name {@code [main tid=1]} with the {@code threads} option).
 *
 * @param samples stack to its sample count; a stack seen on several lines is summed
 */
public record CollapsedStacks(Map<String, Long> samples) {

    /** async-profiler's frame-type suffixes with {@code ann}: {@code _[j]} JIT-compiled, {@code _[i]} inlined, ... */
    private static final Pattern ANNOTATION = Pattern.compile("_\\[[a-z0-9]\\]$");
    /** The {@link #topJava} entry of samples with no Java frame. */
    public static final String NO_JAVA = "(no Java frame: JVM threads)";

    /**
     * One frame's share of the samples.
     *
     * @param frame   the method, e.g. {@code java/util/HashMap.getNode} (annotations stripped)
     * @param samples samples whose stack ended in it (self), or that had it anywhere (total)
     * @param share   samples ÷ all samples, 0..1
     */
    public record Frame(String frame, long samples, double share) {
    }

    public CollapsedStacks {
        samples = Map.copyOf(samples);
    }

    /**
     * @throws IllegalArgumentException naming the first line that is not {@code stack COUNT}
     */
    public static CollapsedStacks parse(String text) {
        Map<String, Long> samples = new LinkedHashMap<>();
        int number = 0;
        for (String line : text.lines().toList()) {
            number++;
            if (line.isBlank()) {
                continue;
            }
            int space = line.lastIndexOf(' ');
            long count;
            try {
                count = space < 1 ? -1 : Long.parseLong(line.substring(space + 1).trim());
            } catch (NumberFormatException e) {
                count = -1;
            }
            if (count < 0) {
                throw new IllegalArgumentException("line " + number + " is not 'frame;frame;... COUNT': " + line);
            }
            samples.merge(line.substring(0, space), count, Long::sum);
        }
        return new CollapsedStacks(samples);
    }

    /**
     * @param file a {@code .collapsed} file, or one gzipped ({@code .gz}: how docs/overhead keeps them)
     * @throws UncheckedIOException when {@code file} cannot be read
     */
    public static CollapsedStacks read(Path file) {
        try (InputStream in = file.toString().endsWith(".gz") ? new GZIPInputStream(Files.newInputStream(file))
                : Files.newInputStream(file)) {
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    /**
     * The components {@link #byComponent} knows, each with the frame prefixes that belong to it, in the order they are
     * listed. The JIT compiler and GC threads run no Java: their C++ frames name them.
     */
    static final Map<String, List<String>> COMPONENTS = componentPrefixes();

    /** The {@link #byComponent} entry of samples that had no frame of a known component. */
    public static final String OTHER = "other (JDK, JVM runtime, kernel)";

    /** @return all samples */
    public long total() {
        return samples.values().stream().mapToLong(Long::longValue).sum();
    }

    /**
     * @param n how many frames at most
     * @return the frames that were on top of the stack (running, for a CPU profile; where the thread was, for a wall
     *         one) most often, by self samples, largest first; ties by name, so the order is stable
     */
    public List<Frame> topSelf(int n) {
        Map<String, Long> self = new LinkedHashMap<>();
        samples.forEach((stack, count) -> self.merge(leaf(stack), count, Long::sum));
        return top(self, n);
    }

    /**
     * @param n how many frames at most
     * @return per sample its deepest Java method (below it only JVM, libc or kernel code, e.g. the futex a parked
     *         thread sleeps in), counted like {@link #topSelf}: in a wall-clock profile this names the Java code that
     *         waits, where the self frames are mostly {@code __futex_abstimed_wait_common}. Samples without a Java
     *         frame (JIT compiler and GC threads) count under {@value #NO_JAVA}
     */
    public List<Frame> topJava(int n) {
        Map<String, Long> java = new LinkedHashMap<>();
        samples.forEach((stack, count) -> java.merge(frames(stack).reversed().stream().filter(CollapsedStacks::isJava)
                .findFirst().orElse(NO_JAVA), count, Long::sum));
        return top(java, n);
    }

    /**
     * @return whether async-profiler's name is a Java method: {@code java/util/HashMap.getNode} (package path, a dot,
     *         the method), not a C++ {@code PhaseChaitin::Split}, a C {@code epoll_wait}, a library path or a {@code [thread]} root
     */
    static boolean isJava(String frame) {
        int slash = frame.lastIndexOf('/');
        return slash > 0 && frame.indexOf('.', slash) > slash && !frame.contains("::")
                && !frame.startsWith("[") && !frame.startsWith("/");
    }

    /**
     * @param n how many frames at most
     * @return the frames present anywhere on the stack most often (a recursive frame counts once per sample), largest
     *         first
     */
    public List<Frame> topTotal(int n) {
        Map<String, Long> total = new LinkedHashMap<>();
        samples.forEach((stack, count) -> frames(stack).stream().distinct().forEach(f -> total.merge(f, count, Long::sum)));
        return top(total, n);
    }

    /**
     * @return per component ({@link #COMPONENTS}, then {@value #OTHER}) the samples whose innermost frame of a known
     *         component is one of its own, largest first: the JDK, JVM and kernel code a component calls counts as that
     *         component's (a socket write below Tomcat's code is Tomcat's, unless the JDK's socket I/O, a component of
     *         its own, is on the stack between them)
     */
    public List<Frame> byComponent() {
        Map<String, Long> counts = new LinkedHashMap<>();
        samples.forEach((stack, count) -> counts.merge(component(frames(stack)), count, Long::sum));
        return top(counts, counts.size());
    }

    private static String component(List<String> frames) {
        for (String frame : frames.reversed()) {
            for (Map.Entry<String, List<String>> c : COMPONENTS.entrySet()) {
                if (c.getValue().stream().anyMatch(frame::startsWith)) {
                    return c.getKey();
                }
            }
        }
        return OTHER;
    }

    private static Map<String, List<String>> componentPrefixes() {
        Map<String, List<String>> c = new LinkedHashMap<>();
        c.put("fanout-lab", List.of("lab/fanout/"));
        c.put("Jackson (JSON)", List.of("tools/jackson/", "com/fasterxml/jackson/"));
        c.put("Micrometer (metrics, observations)", List.of("io/micrometer/"));
        c.put("Apache HttpClient 5", List.of("org/apache/hc/"));
        c.put("Tomcat", List.of("org/apache/catalina/", "org/apache/coyote/", "org/apache/tomcat/"));
        c.put("Reactor", List.of("reactor/"));
        c.put("Spring", List.of("org/springframework/"));
        c.put("JDK socket I/O and pollers", List.of("sun/nio/ch/", "java/net/Socket", "java/net/DelegatingSocketImpl"));
        c.put("virtual-thread scheduling", List.of("java/lang/VirtualThread", "jdk/internal/vm/Continuation",
                "java/util/concurrent/ForkJoin", "java/util/concurrent/DelayScheduler"));
        c.put("JIT compiler", List.of("CompileBroker::"));
        c.put("GC", List.of("G1", "GCTaskThread", "WorkerThread::"));
        return Collections.unmodifiableMap(c);
    }

    private List<Frame> top(Map<String, Long> counts, int n) {
        double all = total();
        return counts.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
                .limit(n)
                .map(e -> new Frame(e.getKey(), e.getValue(), all == 0 ? 0 : e.getValue() / all))
                .toList();
    }

    private static String leaf(String stack) {
        return strip(stack.substring(stack.lastIndexOf(';') + 1));
    }

    private static List<String> frames(String stack) {
        return Arrays.stream(stack.split(";")).map(CollapsedStacks::strip).toList();
    }

    private static String strip(String frame) {
        return ANNOTATION.matcher(frame).replaceFirst("");
    }
}
