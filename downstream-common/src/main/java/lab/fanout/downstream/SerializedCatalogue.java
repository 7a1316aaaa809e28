package lab.fanout.downstream;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import lab.fanout.common.Slice;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

import org.springframework.core.io.ClassPathResource;

/**
 * The JSON array in {@code classpath:catalogue.json}, serialised once at start-up so that serving it costs almost no
 * CPU: the downstream services must never be what limits an experiment.
 */
public final class SerializedCatalogue {

    private final byte[] all;
    private final Map<String, byte[]> byId = new LinkedHashMap<>();
    private final List<byte[]> items = new ArrayList<>();
    /** Each slice asked for, serialised once: at most 32 x 33 / 2 = 528 small arrays. */
    private final Map<Slice, byte[]> slices = new ConcurrentHashMap<>();

    /** @throws IOException if the file is missing or is not a JSON array of objects that each have an {@code id} */
    SerializedCatalogue(ObjectMapper json) throws IOException {
        JsonNode items;
        try (InputStream in = new ClassPathResource("catalogue.json").getInputStream()) {
            items = json.readTree(in);
        }
        if (!items.isArray() || items.isEmpty()) {
            throw new IOException("catalogue.json must be a non-empty JSON array");
        }
        for (JsonNode item : items) {
            if (!item.hasNonNull("id")) {
                throw new IOException("catalogue.json: every item needs an id, this one has none: " + item);
            }
            byte[] bytes = json.writeValueAsBytes(item);
            byId.put(item.get("id").asString(), bytes);
            this.items.add(bytes);
        }
        all = json.writeValueAsBytes(items);
    }

    /** @return the whole catalogue as UTF-8 JSON */
    public byte[] all() {
        return all;
    }

    /**
     * @return the items of {@code slice} as a UTF-8 JSON array, written as {@link #all()} writes the array (compact),
     *         so that the slices' items, in order, are byte for byte the whole catalogue's
     */
    public byte[] slice(Slice slice) {
        if (slice.equals(Slice.WHOLE)) {
            return all;
        }
        return slices.computeIfAbsent(slice, s -> {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            out.write('[');
            for (int i = s.from(items.size()); i < s.to(items.size()); i++) {
                if (i > s.from(items.size())) {
                    out.write(',');
                }
                out.writeBytes(items.get(i));
            }
            out.write(']');
            return out.toByteArray();
        });
    }

    /** @return one item as UTF-8 JSON, or empty if no item has that id */
    public Optional<byte[]> byId(String id) {
        return Optional.ofNullable(byId.get(id));
    }

    public int size() {
        return byId.size();
    }
}
