package lab.fanout.systemtests;

import java.util.List;

import lab.fanout.systemtests.Dashboards.Query;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link VariantSeparationCheck}'s rules on canned Prometheus answers: each way a panel can merge or misplace load. */
class VariantSeparationCheckTest {

    static final String PLATFORM = "main-service-platform";
    static final String VIRTUAL = "main-service-virtual";
    static final String NETTY = "main-service-netty";
    static final List<String> VARIANTS = List.of(PLATFORM, VIRTUAL, NETTY);
    /** A load query of variant-load.txt. */
    static final String RATE = "fanout-overview | Request rate by strategy: $application | A";
    /** A "load on main-service-netty" query of variant-load.txt: only Reactor Netty publishes the metric. */
    static final String NETTY_ACTIVE = "fanout-overview | Reactor Netty: connections.total vs connections.active: $application | B";

    @Test
    void theLoadOnTheLoadedVariantAndZeroOnTheIdleOnePasses() throws Exception {
        assertThat(failures(query("main-service.*"), "{\"application\": \"" + PLATFORM + "\"}", 3.5,
                "{\"application\": \"" + VIRTUAL + "\"}", 0)).isEmpty();
        // a quantile of no requests: NaN on the idle variant; cAdvisor's series name the variant by pod
        assertThat(failures(query("main-service.*"), "{\"pod\": \"" + PLATFORM + "-5d8f9-x2x7k\"}", 3.5,
                "{\"pod\": \"" + VIRTUAL + "-7c9d-abcde\"}", Double.NaN)).isEmpty();
    }

    /** Issue 38: three variants, one loaded, the other two idle. */
    @Test
    void theLoadOnOneVariantAndZeroOnTheOtherTwoPasses() throws Exception {
        assertThat(failures(query("main-service.*"), "{\"application\": \"" + PLATFORM + "\"}", 3.5,
                "{\"application\": \"" + VIRTUAL + "\"}", 0, "{\"application\": \"" + NETTY + "\"}", 0)).isEmpty();
    }

    @Test
    void loadOnTheSecondIdleVariantFails() throws Exception {
        assertThat(failures(query("main-service.*"), "{\"application\": \"" + PLATFORM + "\"}", 3.5,
                "{\"application\": \"" + VIRTUAL + "\"}", 0, "{\"application\": \"" + NETTY + "\"}", 2))
                .singleElement().asString().contains("the idle " + NETTY + " reads [2.0]");
    }

    /** A metric only the netty variant publishes: nothing to carry when another variant is loaded, 0 when idle. */
    @Test
    void aLoadOnlyNettyPublishesMustShowOnNettyAlone() throws Exception {
        Query active = new Query(NETTY_ACTIVE, "(as written)", "(as sent)", null, "main-service.*");
        assertThat(failuresLoaded(active, PLATFORM, "{\"application\": \"" + NETTY + "\"}", 0)).isEmpty();
        assertThat(failuresLoaded(active, NETTY, "{\"application\": \"" + NETTY + "\"}", 24)).isEmpty();
        assertThat(failuresLoaded(active, NETTY, "{\"application\": \"" + NETTY + "\"}", 0))
                .singleElement().asString().contains("the loaded " + NETTY + " carries no load");
        assertThat(failuresLoaded(active, PLATFORM, "{\"application\": \"" + NETTY + "\"}", 3))
                .singleElement().asString().contains("the idle " + NETTY + " reads [3.0]");
    }

    @Test
    void aSeriesWithoutApplicationOrPodFails() throws Exception {
        // and so the loaded variant has no series of its own either
        assertThat(failures(query("main-service.*"), "{\"strategy\": \"scopeFork\"}", 3.5)).satisfiesExactly(
                line -> assertThat(line).contains("names no application or pod, it adds variants together"),
                line -> assertThat(line).contains("the loaded " + PLATFORM + " carries no load: []"));
    }

    @Test
    void loadOnTheIdleVariantFails() throws Exception {
        assertThat(failures(query("main-service.*"), "{\"application\": \"" + PLATFORM + "\"}", 3.5,
                "{\"application\": \"" + VIRTUAL + "\"}", 2))
                .singleElement().asString().contains("the idle " + VIRTUAL + " reads [2.0]");
    }

    @Test
    void noLoadOnTheLoadedVariantFails() throws Exception {
        assertThat(failures(query("main-service.*"), "{\"application\": \"" + PLATFORM + "\"}", 0))
                .singleElement().asString().contains("the loaded " + PLATFORM + " carries no load");
        // a panel repeated for the idle variant does not show the loaded one: nothing to carry there
        assertThat(failures(query(VIRTUAL), "{\"application\": \"" + VIRTUAL + "\"}", 0)).isEmpty();
    }

    @Test
    void aPanelForOneVariantThatShowsTheOtherFails() throws Exception {
        assertThat(failures(query(VIRTUAL), "{\"application\": \"" + PLATFORM + "\"}", 3.5))
                .anySatisfy(line -> assertThat(line).contains("shows " + PLATFORM + ", which its $application excludes"));
    }

    /**
     * Every line of variant-load.txt names a query of today's dashboards. The cluster check says so too, but only in a
     * cluster: here a renamed panel or a line for a panel not yet written fails at once.
     */
    @Test
    void everyLineOfVariantLoadNamesADashboardQuery() throws Exception {
        JsonNode empty = JsonMapper.builder().build().readTree("[]");
        assertThat(VariantSeparationCheck.check(Dashboards.queries(), promql -> empty, PLATFORM, VARIANTS).failures())
                .filteredOn(line -> line.startsWith("variant-load.txt")).isEmpty();
    }

    private static Query query(String application) {
        return new Query(RATE, "(as written)", "(as sent)", null, application);
    }

    /**
     * @param series label sets as JSON and their values, alternating: what Prometheus answers to the query
     * @return the check's failures about the query, with PLATFORM loaded
     */
    private static List<String> failures(Query query, Object... series) throws Exception {
        return failuresLoaded(query, PLATFORM, series);
    }

    /** @return the check's failures about the query, with {@code loaded} loaded */
    private static List<String> failuresLoaded(Query query, String loaded, Object... series) throws Exception {
        StringBuilder json = new StringBuilder("[");
        for (int i = 0; i < series.length; i += 2) {
            json.append(i == 0 ? "" : ",").append("{\"metric\": ").append(series[i])
                    .append(", \"value\": [1764070000, \"").append(series[i + 1]).append("\"]}");
        }
        JsonNode result = JsonMapper.builder().build().readTree(json.append("]").toString());
        return VariantSeparationCheck.check(List.of(query), promql -> result, loaded, VARIANTS).failures().stream()
                .filter(line -> line.startsWith(query.where())).toList();   // not the other entries of variant-load.txt
    }
}
