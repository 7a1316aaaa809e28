package lab.fanout.bench.report;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.zip.DataFormatException;

import lab.fanout.bench.model.CellResult;
import lab.fanout.bench.model.DriverRun;
import lab.fanout.bench.model.Repetition;
import lab.fanout.bench.model.RunResult;
import org.HdrHistogram.Histogram;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.ValueSerializer;
import tools.jackson.databind.cfg.EnumFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.module.SimpleModule;

/**
 * {@code results.json}: a run whole ({@link RunResult}), the lossless form of what results.csv and results.md show:
 * the command, commit, machine and knobs, and every cell with every fork and repetition, its figures as measured and
 * its latency histograms in HdrHistogram's own compressed encoding, base64 ({@code {"source": "measured", "hdr":
 * "HISTFAAA..."}}). A histogram rebuilt from an old results.csv's percentiles reads {@code "source": "percentiles"}
 * ({@link DriverRun#FROM_PERCENTILES}). An absent figure is null. Written anew after every cell and when a run ends,
 * also after an error or Ctrl-C; every command that reads a result reads it.
 */
public final class ResultsJson {

    public static final String FILE = "results.json";
    private static final String MEASURED = "measured";

    /** A histogram in results.json: where it came from and its encoding. */
    private record Encoded(String source, String hdr) {
    }

    private static final JsonMapper JSON = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT)
            .enable(EnumFeature.WRITE_ENUMS_USING_TO_STRING).enable(EnumFeature.READ_ENUMS_USING_TO_STRING)
            .addModule(new SimpleModule("HdrHistogram").addSerializer(Histogram.class, new ValueSerializer<>() {
                @Override
                public void serialize(Histogram h, JsonGenerator out, SerializationContext context) {
                    context.writeValue(out, encoded(h));
                }
            }).addDeserializer(Histogram.class, new ValueDeserializer<>() {
                @Override
                public Histogram deserialize(JsonParser in, DeserializationContext context) {
                    return decoded(context.readValue(in, Encoded.class));
                }
            })).build();

    private ResultsJson() {
    }

    /** Writes {@code dir/results.json}, replacing an earlier one. */
    public static void write(Path dir, RunResult run) {
        JSON.writeValue(dir.resolve(FILE), run);
    }

    /**
     * @param result a results folder of ./lab bench (holding results.json) or such a file
     * @throws IllegalArgumentException when it is missing or is not a results.json, naming where it fails
     */
    public static RunResult read(Path result) {
        Path file = Files.isDirectory(result) ? result.resolve(FILE) : result;
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException(file + " does not exist: give a results folder of ./lab bench (it holds"
                    + " " + FILE + ") or such a file");
        }
        try {
            return JSON.readValue(file, RunResult.class);
        } catch (JacksonException e) {
            throw new IllegalArgumentException(file + " is not a " + FILE + " of ./lab bench: " + e.getMessage(), e);
        }
    }

    /**
     * @param result a results folder of ./lab bench, a committed result's {@code NAME.json}, or its {@code NAME.csv}
     *               or {@code NAME.md} (read: the NAME.json beside it)
     * @return its cells in run order, every figure and histogram as results.json holds it
     * @throws IllegalArgumentException when there is no results.json (a run from before it: its results.csv is no
     *                                  longer read back), or as {@link #read}
     */
    public static List<CellResult> cells(Path result) {
        Path json = beside(result);
        if (!Files.isRegularFile(json)) {
            throw new IllegalArgumentException(Files.exists(result) ? result + " has no " + json.getFileName()
                    + " beside it: ./lab report, charts, compare and verdicts read a result's results.json (./lab"
                    + " bench writes it since 2026-12-07; a results.csv alone is not read back): give a results"
                    + " folder of ./lab bench or a committed NAME.json"
                    : result + " does not exist: give a results folder of ./lab bench (it holds " + FILE
                    + ") or a committed NAME.json");
        }
        return read(json).cells();
    }

    /**
     * @return the rows {@code ./lab compare} and {@code ./lab verdicts} read: the result's cells ({@link #cells}:
     *         every figure as measured) through results.csv's own columns ({@link ResultsCsv#rows})
     * @param result a results folder of ./lab bench, a committed NAME.json or the NAME.csv beside it
     * @throws IllegalArgumentException as {@link #cells}
     */
    static List<ResultRow> rows(Path result) {
        return ResultsCsv.rows(cells(result));
    }

    /** @return the results.json of a results folder, or {@code NAME.json} for {@code NAME.json|csv|md} */
    public static Path beside(Path result) {
        return Files.isDirectory(result) ? result.resolve(FILE) : result.resolveSibling(result.getFileName()
                .toString().replaceFirst("\\.(json|csv|md)$", "") + ".json");
    }

    /** @return the most forks a cell holds */
    public static int forks(List<CellResult> cells) {
        return cells.stream().mapToInt(r -> r.repetitions().stream().mapToInt(Repetition::fork).max().orElse(0))
                .max().orElse(0);
    }

    private static Encoded encoded(Histogram h) {
        ByteBuffer buffer = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
        int length = h.encodeIntoCompressedByteBuffer(buffer);
        return new Encoded(DriverRun.FROM_PERCENTILES.equals(h.getTag()) ? DriverRun.FROM_PERCENTILES : MEASURED,
                Base64.getEncoder().encodeToString(Arrays.copyOf(buffer.array(), length)));
    }

    /** @return the histogram, auto-resizing as a live run's ({@link DriverRun#histogram}), tagged when rebuilt */
    private static Histogram decoded(Encoded e) {
        if (!MEASURED.equals(e.source()) && !DriverRun.FROM_PERCENTILES.equals(e.source())) {
            throw new IllegalArgumentException("a histogram's source is " + MEASURED + " or "
                    + DriverRun.FROM_PERCENTILES + ", not " + e.source());
        }
        try {
            Histogram h = Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(Base64.getDecoder()
                    .decode(e.hdr())), 0);
            h.setAutoResize(true);
            h.setTag(MEASURED.equals(e.source()) ? null : DriverRun.FROM_PERCENTILES);
            return h;
        } catch (DataFormatException | RuntimeException x) {
            throw new IllegalArgumentException("a histogram is not HdrHistogram's compressed encoding in base64: "
                    + x.getMessage(), x);
        }
    }
}
