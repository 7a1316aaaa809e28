package lab.fanout.bench.profile;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;

/**
 * async-profiler's collapsed output ({@code file=x.collapsed}): one line per distinct stack,
 * {@code root;caller;...;leaf COUNT}, the count after the last space (a frame may hold spaces, e.g. a thread name
 * {@code [main tid=1]}).
 *
 * @param samples stack to its sample count; a stack seen on several lines is summed
 */
public record CollapsedStacks(Map<String, Long> samples) {

    /** async-profiler's frame-type suffixes with {@code ann}: {@code _[j]} JIT-compiled, {@code _[i]} inlined, ... */
    private static final Pattern ANNOTATION = Pattern.compile("_\\[[a-z0-9]\\]$");
    /** The {@link #topJava} entry of samples with no Java frame. */
    public static final String NO_JAVA = "(no Java frame: JVM threads)";
    /** The {@link #byComponent} entry of samples that had no frame of a known component. */
    public static final String OTHER = "other (JDK, JVM runtime, kernel)";
    /** Per component its name, then the frame prefixes that are its own. JIT and GC threads run no Java: C++ frames. */
    private static final String[][] COMPONENTS = {
            {"fanout-lab", "lab/fanout/"},
            {"Jackson (JSON)", "tools/jackson/", "com/fasterxml/jackson/"},
            {"Micrometer (metrics, observations)", "io/micrometer/"},
            {"Apache HttpClient 5", "org/apache/hc/"},
            {"Tomcat", "org/apache/catalina/", "org/apache/coyote/", "org/apache/tomcat/"},
            {"Reactor", "reactor/"},
            {"Spring", "org/springframework/"},
            {"JDK socket I/O and pollers", "sun/nio/ch/", "java/net/Socket", "java/net/DelegatingSocketImpl"},
            {"virtual-thread scheduling", "java/lang/VirtualThread", "jdk/internal/vm/Continuation",
                    "java/util/concurrent/ForkJoin", "java/util/concurrent/DelayScheduler"},
            {"JIT compiler", "CompileBroker::"},
            {"GC", "G1", "GCTaskThread", "WorkerThread::"}};

    /** A method ({@code java/util/HashMap.getNode}, annotations stripped) or component: its samples, share 0..1. */
    public record Frame(String frame, long samples, double share) {
    }

    public CollapsedStacks {
        samples = Map.copyOf(samples);
    }

    /** @throws IllegalArgumentException naming the first line that is not {@code stack COUNT} */
    public static CollapsedStacks parse(String text) {
        Map<String, Long> samples = new LinkedHashMap<>();
        List<String> lines = text.lines().toList();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            int space = line.lastIndexOf(' ');
            if (line.isBlank()) {
                continue;
            } else if (space < 1 || !line.substring(space + 1).trim().matches("\\d+")) {
                throw new IllegalArgumentException("line " + (i + 1) + " is not 'frame;frame;... COUNT': " + line);
            }
            samples.merge(line.substring(0, space), Long.parseLong(line.substring(space + 1).trim()), Long::sum);
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

    public long total() {
        return samples.values().stream().mapToLong(Long::longValue).sum();
    }

    /**
     * @return the frames on top of the stack (running, for a CPU profile; where the thread was, for a wall one) most
     *         often, at most {@code n}, largest first; ties by name, so the order is stable
     */
    public List<Frame> topSelf(int n) {
        return top(frames -> frames.getLast(), n);
    }

    /**
     * @return per sample its deepest Java method (below it only JVM, libc or kernel code, e.g. the futex a parked
     *         thread sleeps in), counted like {@link #topSelf}: in a wall-clock profile the Java code that waits.
     *         Samples without a Java frame (JIT compiler and GC threads) count under {@value #NO_JAVA}
     */
    public List<Frame> topJava(int n) {
        return top(frames -> frames.reversed().stream().filter(CollapsedStacks::isJava).findFirst().orElse(NO_JAVA), n);
    }

    /**
     * @return whether async-profiler's name is a Java method, {@code java/util/HashMap.getNode} (package path, a dot,
     *         the method), not a C++ {@code PhaseChaitin::Split}, a C {@code epoll_wait}, a library path or a
     *         {@code [thread]} root
     */
    static boolean isJava(String frame) {
        int slash = frame.lastIndexOf('/');
        return slash > 0 && frame.indexOf('.', slash) > slash && !frame.contains("::")
                && !frame.startsWith("[") && !frame.startsWith("/");
    }

    /**
     * @return per component ({@link #COMPONENTS}, then {@value #OTHER}) the samples whose innermost frame of a known
     *         component is its own, largest first: the JDK, JVM and kernel code a component calls counts as its (a
     *         socket write below Tomcat is Tomcat's, unless the JDK's socket I/O is on the stack between them)
     */
    public List<Frame> byComponent() {
        return top(CollapsedStacks::component, Integer.MAX_VALUE);
    }

    private static String component(List<String> frames) {
        for (String frame : frames.reversed()) {
            for (String[] c : COMPONENTS) {
                if (Arrays.stream(c, 1, c.length).anyMatch(frame::startsWith)) {
                    return c[0];
                }
            }
        }
        return OTHER;
    }

    /** @param key the name a sample counts for, from its frames (root first, annotations stripped) */
    private List<Frame> top(Function<List<String>, String> key, int n) {
        Map<String, Long> counts = new LinkedHashMap<>();
        samples.forEach((stack, count) -> counts.merge(key.apply(Arrays.stream(stack.split(";"))
                .map(f -> ANNOTATION.matcher(f).replaceFirst("")).toList()), count, Long::sum));
        double all = total();
        return counts.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
                .limit(n)
                .map(e -> new Frame(e.getKey(), e.getValue(), all == 0 ? 0 : e.getValue() / all))
                .toList();
    }
}
