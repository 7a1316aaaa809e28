package lab.fanout.bench.overload;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.OptionalDouble;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * main-service's heap after each collection, from its unified GC log ({@code -Xlog:gc}, one file per JVM): it
 * survives the JVM that an OutOfMemoryError ends, where a scrape of the dying one fails. A line reads
 * {@code [2026-11-27T05:37:00.747+0000] GC(1) Pause Young (Normal) (G1 Evacuation Pause) 28M->17M(64M) 15.844ms};
 * 17M is the heap after it. A young pause leaves old garbage in that figure until a mixed or full one.
 */
final class GcLog {

    private static final Pattern PAUSE = Pattern.compile(
            "^\\[([^]]+)].*\\bGC\\(\\d+\\) Pause .*?(\\d+)([KMG])->(\\d+)([KMG])\\((\\d+)([KMG])\\)");
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSZ");
    static final String PREFIX = "main-service-gc-";

    private GcLog() {
    }

    /** @return the JVM option that writes main-service's GC log into {@code dir}, a file per process id */
    static String option(Path dir) {
        return "-Xlog:gc:file=" + dir.toAbsolutePath().resolve(PREFIX + "%p.log") + ":time";
    }

    /** @return the largest heap after a collection between {@code from} and {@code to} in every log in dir, MiB */
    static OptionalDouble peakAfterMiB(Path dir, Instant from, Instant to) {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().startsWith(PREFIX))
                    .flatMap(f -> lines(f).stream()).mapToDouble(l -> afterMiB(l, from, to)).filter(v -> v >= 0)
                    .max();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + dir, e);
        }
    }

    /** @return the heap after the pause this line logs, MiB, when it lies in [from, to]; else −1 */
    static double afterMiB(String line, Instant from, Instant to) {
        Matcher m = PAUSE.matcher(line);
        if (!m.find()) {
            return -1;
        }
        Instant at = OffsetDateTime.parse(m.group(1), TIME).toInstant();
        return at.isBefore(from) || at.isAfter(to) ? -1 : mib(Long.parseLong(m.group(4)), m.group(5));
    }

    private static double mib(long value, String unit) {
        return switch (unit) {
            case "K" -> value / 1024.0;
            case "G" -> value * 1024.0;
            default -> value;
        };
    }

    private static List<String> lines(Path file) {
        try {
            return Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }
}
