package lab.fanout.bench.model;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The defaults the bench assumes (ServiceDefaults) are the services' own (issue 25: the per-route pool default read
 * 167 in one place and 500 in another). Read from the services' sources in this checkout: their application.yml (the
 * first YAML document, the one no profile guards) and the @DefaultValues of their properties records.
 */
class ServiceDefaultsTest {

    private static final Path REPO = Path.of("..");
    private static final YAMLMapper YAML = YAMLMapper.builder()
            .disable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).build();   // the profiles' documents follow

    @Test
    void mainServiceKnobs() throws IOException {
        JsonNode yml = yaml("main-service");
        assertThat(yml.at("/server/tomcat/threads/max").asInt()).isEqualTo(ServiceDefaults.TOMCAT_THREADS);
        assertThat(yml.at("/fanout/pool/max-total").asInt()).isEqualTo(ServiceDefaults.POOL_TOTAL);
        assertThat(yml.at("/fanout/pool/max-per-route").isMissingNode())
                .as("max-per-route left to FanoutProperties").isTrue();
        assertThat(yml.at("/fanout/deadline").asString()).isEqualTo(ServiceDefaults.DEADLINE_SECONDS + "s");
        assertThat(yml.at("/fanout/bounded-pool/threads").asInt()).isEqualTo(ServiceDefaults.BOUNDED_POOL_THREADS);
        assertThat(yml.at("/fanout/bounded-pool/queue").asInt()).isEqualTo(ServiceDefaults.BOUNDED_POOL_QUEUE);
    }

    @Test
    void mainServicePropertiesRecord() throws IOException {
        String source = Files.readString(
                REPO.resolve("main-service/src/main/java/lab/fanout/main/config/FanoutProperties.java"));
        assertThat(find(source, "@DefaultValue\\(\"(\\d+)\"\\) int maxTotal"))
                .isEqualTo(String.valueOf(ServiceDefaults.POOL_TOTAL));
        assertThat(find(source, "@DefaultValue\\(\"(\\d+)s\"\\) Duration deadline"))
                .isEqualTo(String.valueOf(ServiceDefaults.DEADLINE_SECONDS));
        assertThat(find(source, "static final int COUNT = (\\d+);"))
                .isEqualTo(String.valueOf(ServiceDefaults.DOWNSTREAM_COUNT));
        assertThat(source).contains("maxPerRoute = Math.ceilDiv(maxTotal, Downstreams.COUNT);");
        assertThat(ServiceDefaults.POOL_PER_ROUTE)
                .isEqualTo(Math.ceilDiv(ServiceDefaults.POOL_TOTAL, ServiceDefaults.DOWNSTREAM_COUNT));
        assertThat(ServiceDefaults.DOWNSTREAMS).hasSize(ServiceDefaults.DOWNSTREAM_COUNT);
        assertThat(ServiceDefaults.SERVICES).containsExactlyInAnyOrderElementsOf(ServiceDefaults.PORTS.keySet())
                .containsAll(ServiceDefaults.DOWNSTREAMS);
    }

    @Test
    void downstreamLatency() throws IOException {
        String source = Files.readString(
                REPO.resolve("downstream-common/src/main/java/lab/fanout/downstream/DownstreamProperties.java"));
        assertThat(find(source, "@DefaultValue\\(\"(\\d+)ms\"\\)\\s+Duration latency"))
                .isEqualTo(String.valueOf(ServiceDefaults.LATENCY_MS));
    }

    @ParameterizedTest
    @ValueSource(strings = {"main-service", "accounts-service", "orders-service", "products-service"})
    void ports(String service) throws IOException {
        JsonNode yml = yaml(service);
        assertThat(yml.at("/server/port").asInt()).isEqualTo(ServiceDefaults.PORTS.get(service));
        assertThat(yml.at("/management/server/port").asInt()).isEqualTo(ServiceDefaults.MANAGEMENT_PORTS.get(service));
    }

    private static JsonNode yaml(String service) throws IOException {
        return YAML.readTree(REPO.resolve(service).resolve("src/main/resources/application.yml").toFile());
    }

    private static String find(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        assertThat(m.find()).as(regex).isTrue();
        return m.group(1);
    }
}
