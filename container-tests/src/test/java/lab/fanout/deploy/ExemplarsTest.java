package lab.fanout.deploy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import lab.fanout.deploy.Manifests.Workload;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Exemplars, from a slow bucket to its trace (docs/observability.md): every Prometheus of every whole deployment keeps
 * them (exemplar storage on); every dashboard query over the request-latency histogram
 * ({@code http_server_requests_seconds_bucket}) asks Grafana to draw them; and the provisioned Prometheus datasource
 * turns an exemplar's {@code trace_id} (the label Spring Boot's Prometheus exemplars carry) into a link to Zipkin's
 * trace page. A real scrape and query of them: ./lab cluster check 10.
 */
class ExemplarsTest {

    static final String LATENCY_HISTOGRAM = "http_server_requests_seconds_bucket";
    static final String EXEMPLAR_STORAGE = "--enable-feature=exemplar-storage";
    /**
     * Zipkin's trace page, as {@code ./lab up --with-zipkin} and a port-forward to the zipkin Service serve it; in the
     * provisioning file {@code $$} is a literal {@code $} (Grafana expands {@code $NAME} there), so Grafana's link is
     * {@code ...traces/${__value.raw}}, the exemplar's trace id.
     */
    static final String ZIPKIN_TRACE_PAGE = "http://127.0.0.1:9411/zipkin/traces/$${__value.raw}";

    @Test
    void everyPrometheusKeepsExemplars() {
        int checked = 0;
        for (String entryPoint : Repo.entryPoints()) {
            for (Workload workload : Manifests.of(entryPoint).workloads()) {
                for (Map<String, Object> container : workload.containers()) {
                    if (Y.str(container, "image").matches(".*/prometheus[:@].*")) {
                        assertThat(strings(container.get("args"))).as("%s %s: Prometheus' args", entryPoint, workload)
                                .contains(EXEMPLAR_STORAGE);
                        checked++;
                    }
                }
            }
        }
        assertThat(checked).as("Prometheus containers checked").isPositive();
    }

    /** One query per panel asks: the panel's other quantiles read the same buckets and would draw the same dots again. */
    @Test
    void everyRequestLatencyPanelShowsExemplars() {
        List<String> panels = new ArrayList<>();
        JsonMapper json = JsonMapper.builder().build();
        try (Stream<Path> files = Files.list(Repo.path("grafana/dashboards"))) {
            files.filter(f -> f.toString().endsWith(".json")).sorted().forEach(file -> {
                for (JsonNode panel : json.readTree(Repo.read(file)).path("panels")) {
                    List<JsonNode> latency = new ArrayList<>();
                    panel.path("targets").forEach(t -> {
                        if (t.path("expr").asString("").contains(LATENCY_HISTOGRAM)) {
                            latency.add(t);
                        }
                    });
                    if (!latency.isEmpty()) {
                        String where = file.getFileName() + ": panel '" + panel.path("title").asString("") + "'";
                        panels.add(where);
                        assertThat(latency.stream().filter(t -> t.path("exemplar").asBoolean(false)).count())
                                .as("%s: queries with \"exemplar\": true", where).isOne();
                    }
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        assertThat(panels).as("panels over %s", LATENCY_HISTOGRAM).hasSizeGreaterThanOrEqualTo(3);
    }

    @Test
    void theDatasourceLinksAnExemplarsTraceIdToZipkin() {
        Map<String, Object> config = new Yaml(new SafeConstructor(new LoaderOptions()))
                .load(Repo.read(Repo.path("grafana/provisioning/datasources/prometheus.yaml")));
        Map<String, Object> prometheus = Y.maps(config, "datasources").stream()
                .filter(d -> "prometheus".equals(d.get("type"))).findFirst().orElseThrow();
        List<Map<String, Object>> destinations = Y.maps(prometheus, "jsonData.exemplarTraceIdDestinations");
        assertThat(destinations).as("the Prometheus datasource's exemplarTraceIdDestinations").anySatisfy(d -> {
            assertThat(d.get("name")).as("the exemplar label holding the trace id").isEqualTo("trace_id");
            assertThat(d.get("url")).as("the link").isEqualTo(ZIPKIN_TRACE_PAGE);
        });
    }

    private static List<String> strings(Object list) {
        return list instanceof List<?> l ? l.stream().map(String::valueOf).toList() : List.of();
    }
}
