package lab.fanout.bench.matrix;

import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.exc.UnrecognizedPropertyException;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * Reads a matrix from YAML ({@code blocks:}, a list of {@link Block}s) or CSV (one block per row under a header of the
 * same keys, list values separated by spaces). Presets are such files, {@code bench/matrices/<name>.yaml} packaged
 * into the jar. Unknown keys and bad values fail naming the file, the line or block, and what is valid.
 */
public final class MatrixFile {

    public static final List<String> PRESETS = List.of("quick", "seed", "scale", "soak", "openclosed", "scheduler",
            "overhead", "tail", "cpu", "cpu-limit", "footprint", "pinning", "database", "recycler");
    /** The preset that is a failure-mode run, not a matrix. */
    public static final String FAULTS = "faults";
    /** The preset that offers load past capacity and may kill main-service: cells of its own, not a matrix. */
    public static final String OVERLOAD = "overload";
    static final List<String> KEYS = Arrays.stream(Block.class.getRecordComponents()).map(c -> c.getName()).toList();

    /** The YAML document: {@code blocks:}, and optionally {@code mainProperties:} and {@code mainCpus:}, run-wide. */
    record Document(List<Block> blocks, Map<String, String> mainProperties, String mainCpus) {
    }

    private static final YAMLMapper YAML = YAMLMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.ACCEPT_SINGLE_VALUE_AS_ARRAY)   // concurrencies: 100 as well as [100]
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES).build();
    private static final JsonMapper JSON = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.ACCEPT_SINGLE_VALUE_AS_ARRAY).build();

    private MatrixFile() {
    }

    /** @throws IllegalArgumentException for an unknown preset, naming the valid ones */
    public static Matrix preset(String name) {
        if (!PRESETS.contains(name)) {
            List<String> all = new ArrayList<>(PRESETS);
            all.add(FAULTS);
            all.add(OVERLOAD);
            throw new IllegalArgumentException("preset '" + name + "' is not one of " + all);
        }
        try (InputStream in = MatrixFile.class.getResourceAsStream("/matrices/" + name + ".yaml")) {
            return yaml(name, new String(in.readAllBytes(), StandardCharsets.UTF_8), "preset " + name);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * @throws IllegalArgumentException unreadable file, unknown extension, bad content: the message says what and where
     */
    public static Matrix read(Path file) {
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read matrix file " + file + ": " + e.getMessage(), e);
        }
        String name = file.getFileName().toString();
        String base = name.replaceFirst("\\.[^.]*$", "");
        if (name.endsWith(".yaml") || name.endsWith(".yml")) {
            return yaml(base, text, file.toString());
        }
        if (name.endsWith(".csv")) {
            return csv(base, text, file.toString());
        }
        throw new IllegalArgumentException("matrix file " + file + " must end in .yaml, .yml or .csv");
    }

    static Matrix yaml(String name, String text, String source) {
        Document doc;
        try {
            doc = YAML.readValue(text, Document.class);
        } catch (JacksonException e) {
            throw new IllegalArgumentException(source + line(text, e) + ": " + problem(e), e);
        }
        if (doc == null || doc.blocks() == null || doc.blocks().isEmpty()) {
            throw new IllegalArgumentException(source
                    + ": no blocks (expected 'blocks:' with a list; see bench/matrices/)");
        }
        Matrix m = validated(name, doc.blocks(), doc.mainProperties(), source);
        return new Matrix(m.name(), m.blocks(), m.mainProperties(), doc.mainCpus());
    }

    static Matrix csv(String name, String text, String source) {
        List<Block> blocks = new ArrayList<>();
        try (CSVParser parser = CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).setCommentMarker('#')
                .setIgnoreSurroundingSpaces(true).setIgnoreEmptyLines(true).get().parse(new StringReader(text))) {
            List<String> unknown = parser.getHeaderNames().stream().filter(h -> !KEYS.contains(h)).toList();
            if (!unknown.isEmpty()) {
                throw new IllegalArgumentException(source + ": unknown column(s) " + unknown + "; valid: " + KEYS);
            }
            for (CSVRecord row : parser) {
                blocks.add(block(row, source));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (IllegalStateException | UncheckedIOException e) {
            throw new IllegalArgumentException(source + ": not a CSV matrix: " + e.getMessage(), e);
        }
        if (blocks.isEmpty()) {
            throw new IllegalArgumentException(source + ": no rows (one block per row under a header of " + KEYS + ")");
        }
        return validated(name, blocks, Map.of(), source);
    }

    private static Block block(CSVRecord row, String source) {
        Map<String, Object> fields = new LinkedHashMap<>();
        row.toMap().forEach((k, v) -> {
            if (!v.isBlank()) {
                fields.put(k, v.contains(" ") ? List.of(v.trim().split("\\s+")) : v.trim());
            }
        });
        try {
            return JSON.convertValue(fields, Block.class);
        } catch (JacksonException e) {
            throw new IllegalArgumentException(source + ", line " + row.getParser().getCurrentLineNumber() + ": "
                    + problem(e), e);
        }
    }

    private static Matrix validated(String name, List<Block> blocks, Map<String, String> mainProperties,
                                    String source) {
        try {
            blocks.forEach(Block::validated);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(source + ": " + e.getMessage(), e);
        }
        List<String> names = blocks.stream().map(Block::name).toList();
        if (names.stream().distinct().count() < names.size()) {
            throw new IllegalArgumentException(source + ": block names must differ, were " + names);
        }
        return new Matrix(name, blocks, mainProperties);
    }

    /** The YAML parser reports where it stopped reading, often past the key: find an unknown key's own line. */
    private static String line(String text, JacksonException e) {
        if (e instanceof UnrecognizedPropertyException u) {
            List<String> lines = text.lines().toList();
            for (int i = 0; i < lines.size(); i++) {
                if (lines.get(i).matches("\\s*(-\\s+)?" + Pattern.quote(u.getPropertyName()) + "\\s*:.*")) {
                    return ", line " + (i + 1);
                }
            }
        }
        return e.getLocation() == null ? "" : ", near line " + e.getLocation().getLineNr();
    }

    /** Jackson's message without its location and source dump; the valid keys for an unknown one. */
    private static String problem(JacksonException e) {
        if (e instanceof UnrecognizedPropertyException u) {
            return "unknown key '" + u.getPropertyName() + "'; valid: "
                    + (u.getReferringClass() == Block.class ? KEYS : List.of("blocks"));
        }
        String path = e.getPath().stream().map(r -> r.getPropertyName() != null ? "." + r.getPropertyName()
                : "[" + r.getIndex() + "]").collect(Collectors.joining()).replaceFirst("^\\.", "");
        return (path.isEmpty() ? "" : path + ": ") + e.getOriginalMessage();
    }
}
