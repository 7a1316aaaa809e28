package lab.fanout.systemtests;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;

import lab.fanout.systemtests.Dashboards.Query;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The overview's database pool row shows orders-service's pool whichever driver its store runs (issue 39): HikariCP's
 * series ({@code hikaricp_*}, orders.store=postgres) and r2dbc-pool's ({@code r2dbc_pool_*}, orders.store=r2dbc), each
 * line's legend naming its driver. Checked here without a Prometheus: every panel with a JDBC line has the R2DBC line
 * of the same quantity; every r2dbc name is one orders-service publishes (R2dbcStorePoolTest reads each in a real
 * scrape); and the per-store allowlists that ClusterDashboardsIT and DashboardsEndToEndIT use list exactly the other
 * driver's queries, so that on a cluster each driver's half must have data on its own store.
 */
class DashboardStoreAllowlistsTest {

    static final String JDBC = "hikaricp_";
    static final String R2DBC = "r2dbc_pool_";
    static final String ORDERS_POOL_TEST =
            "orders-service/src/test/java/lab/fanout/orders/store/R2dbcStorePoolTest.java";

    /**
     * Each HikariCP series the overview charts, to the r2dbc-pool series that show the same quantity (usage: r2dbc-pool
     * does not time how long a connection is held; the panel derives it by Little's law from the two named).
     */
    static final Map<String, Set<String>> COUNTERPARTS = Map.of(
            "hikaricp_connections_active", Set.of("r2dbc_pool_acquired_connections"),
            "hikaricp_connections_idle", Set.of("r2dbc_pool_idle_connections"),
            "hikaricp_connections_pending", Set.of("r2dbc_pool_pending_connections"),
            "hikaricp_connections_max", Set.of("r2dbc_pool_max_allocated_connections"),
            "hikaricp_connections_acquire_seconds_sum", Set.of("r2dbc_pool_acquire_seconds_sum"),
            "hikaricp_connections_acquire_seconds_count", Set.of("r2dbc_pool_acquire_seconds_count"),
            "hikaricp_connections_acquire_seconds_max", Set.of("r2dbc_pool_acquire_seconds_max"),
            "hikaricp_connections_usage_seconds_sum",
            Set.of("r2dbc_pool_acquired_connections", "r2dbc_pool_acquire_seconds_count"),
            "hikaricp_connections_usage_seconds_count", Set.of("r2dbc_pool_acquire_seconds_count"));

    @Test
    void everyJdbcLineHasItsR2dbcLineInTheSamePanelAndEveryLegendNamesItsDriver() {
        Map<String, Set<String>> namesByPanel = new TreeMap<>();
        List<String> failures = new ArrayList<>();
        for (Query query : Dashboards.queries()) {
            Set<String> names = PromqlNames.of(query.promql());
            String panel = query.where().substring(0, query.where().lastIndexOf(" | "));
            namesByPanel.computeIfAbsent(panel, p -> new TreeSet<>()).addAll(names);
            String legend = legend(query);
            boolean jdbc = names.stream().anyMatch(n -> n.startsWith(JDBC));
            boolean r2dbc = names.stream().anyMatch(n -> n.startsWith(R2DBC));
            if (jdbc && r2dbc || jdbc && !legend.contains("JDBC") || r2dbc && !legend.contains("R2DBC")) {
                failures.add(query.where() + ": one driver per line, named in the legend ('" + legend + "')");
            }
        }
        namesByPanel.forEach((panel, names) -> names.stream().filter(n -> n.startsWith(JDBC)).forEach(jdbc -> {
            Set<String> want = COUNTERPARTS.get(jdbc);
            if (want == null) {
                failures.add(panel + ": charts " + jdbc + ", whose R2DBC counterpart COUNTERPARTS does not name");
            } else if (!names.containsAll(want)) {
                failures.add(panel + ": charts " + jdbc + " but not " + want + " (orders.store=r2dbc)");
            }
        }));
        assertThat(namesByPanel.values().stream().flatMap(Set::stream).filter(n -> n.startsWith(JDBC)))
                .as("the overview charts HikariCP's pool").contains("hikaricp_connections_active");
        assertThat(failures).as("the database pool row for both drivers").isEmpty();
    }

    @Test
    void everyR2dbcSeriesChartedIsOneOrdersServicePublishes() throws IOException {
        String poolTest = Files.readString(Repo.ROOT.resolve(ORDERS_POOL_TEST));
        Set<String> scraped = new TreeSet<>(Pattern.compile("\"(" + R2DBC + "\\w+)\"").matcher(poolTest).results()
                .map(m -> m.group(1)).toList());
        assertThat(scraped).as("the r2dbc-pool series %s reads in a scrape", ORDERS_POOL_TEST).isNotEmpty();
        Set<String> charted = new TreeSet<>();
        Dashboards.queries().forEach(q -> PromqlNames.of(q.promql()).stream().filter(n -> n.startsWith(R2DBC))
                .forEach(charted::add));
        assertThat(charted).as("r2dbc-pool series on the dashboards").isNotEmpty();
        assertThat(scraped).as("the r2dbc-pool series charted must be in orders-service's scrape").containsAll(charted);
    }

    /** Each store's allowlist names exactly the pool queries of the driver it does not run; memory: all of them. */
    @Test
    void eachStoresAllowlistNamesExactlyTheOtherDriversQueries() throws IOException {
        Set<String> jdbc = queriesCharting(JDBC);
        Set<String> r2dbc = queriesCharting(R2DBC);
        assertThat(jdbc).as("queries of hikaricp_* series").isNotEmpty();
        assertThat(r2dbc).as("queries of r2dbc_pool_* series").isNotEmpty();
        Set<String> both = new TreeSet<>(jdbc);
        both.addAll(r2dbc);
        assertThat(DashboardQueryCheck.emptyByNature("empty-on-postgres-store.txt").keySet())
                .containsExactlyInAnyOrderElementsOf(r2dbc);
        assertThat(DashboardQueryCheck.emptyByNature("empty-on-r2dbc-store.txt").keySet())
                .containsExactlyInAnyOrderElementsOf(jdbc);
        assertThat(DashboardQueryCheck.emptyByNature("empty-on-memory-store.txt").keySet())
                .containsExactlyInAnyOrderElementsOf(both);
    }

    private static Set<String> queriesCharting(String prefix) {
        Set<String> where = new TreeSet<>();
        Dashboards.queries().stream()
                .filter(q -> PromqlNames.of(q.promql()).stream().anyMatch(n -> n.startsWith(prefix)))
                .forEach(q -> where.add(q.where()));
        return where;
    }

    /** @return the legend of the panel target at {@code query}'s where, "" when it has none */
    private static String legend(Query query) {
        String[] where = query.where().split(" \\| ");
        for (var file : Dashboards.files()) {
            var dashboard = Dashboards.read(file);
            if (!dashboard.path("uid").asString().equals(where[0])) {
                continue;
            }
            for (var panel : Dashboards.panels(dashboard)) {
                for (var target : panel.path("targets")) {
                    if (panel.path("title").asString().equals(where[1])
                            && target.path("refId").asString().equals(where[2])) {
                        return target.path("legendFormat").asString("");
                    }
                }
            }
        }
        return "";
    }
}
