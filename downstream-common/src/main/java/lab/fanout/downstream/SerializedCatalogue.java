package lab.fanout.downstream;

import java.io.IOException;
import java.io.InputStream;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

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
            byId.put(item.get("id").asString(), json.writeValueAsBytes(item));
        }
        all = json.writeValueAsBytes(items);
    }

    /** @return the whole catalogue as UTF-8 JSON */
    public byte[] all() {
        return all;
    }

    /** @return one item as UTF-8 JSON, or empty if no item has that id */
    public Optional<byte[]> byId(String id) {
        return Optional.ofNullable(byId.get(id));
    }

    public int size() {
        return byId.size();
    }
}
