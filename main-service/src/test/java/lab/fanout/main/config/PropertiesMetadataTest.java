package lab.fanout.main.config;

import java.io.IOException;
import java.io.InputStream;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The configuration processor ran (JDK 23+ runs none unless the build asks, see pom.xml): an IDE completes and
 * documents {@code fanout.*} from the metadata it writes, with the Javadoc of {@link FanoutProperties}.
 */
class PropertiesMetadataTest {

    @Test
    void fanoutPropertiesHaveDescribedMetadata() throws IOException {
        try (InputStream in = getClass().getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
            assertThat(in).as("spring-configuration-metadata.json on the classpath").isNotNull();
            JsonNode metadata = JsonMapper.builder().build().readTree(in);
            JsonNode properties = metadata.path("properties");
            assertThat(properties.valueStream().map(p -> p.path("name").asString()))
                    .contains("fanout.deadline", "fanout.pool.max-total", "fanout.downstreams.orders",
                            "fanout.reactive.client");
            assertThat(properties.valueStream().filter(p -> p.path("name").asString().equals("fanout.deadline"))
                    .map(p -> p.path("description").asString())).singleElement().asString().isNotBlank();
            assertThat(metadata.path("hints").valueStream()
                    .filter(h -> h.path("name").asString().equals("fanout.reactive.client"))
                    .flatMap(h -> h.path("values").valueStream()).map(v -> v.path("value").asString()))
                    .as("the values an IDE offers for fanout.reactive.client")
                    .containsExactly("httpclient5", "reactor-netty");
        }
    }
}
