package lab.fanout.orders.store;

import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Objects;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What both database stores share: the orders query (one row per order line, in catalogue order, behind the
 * simulated I/O's {@code pg_sleep}) and the folding of its rows into orders shaped as {@code catalogue.json}'s
 * ({@code id, accountId, status, placedAt, items: [{productId, quantity}]}), so that JDBC and R2DBC answer the same
 * bytes as the memory store.
 */
final class OrderLines {

    /**
     * The sleep is a MATERIALIZED CTE on the preserved side of a LEFT JOIN: it runs exactly once per query, before
     * or beside the read, also when no order matches (an unknown id still takes its latency). Slices are computed
     * as {@link lab.fanout.common.Slice} computes them, on each order's rank in the catalogue. Parameters: the sleep
     * (s), the slice's index, its count, its index, its count.
     */
    static final String PART = """
            WITH simulated_io AS MATERIALIZED (SELECT pg_sleep(?)),
                 ranked AS (SELECT o.*, row_number() OVER (ORDER BY o.position) - 1 AS rank, count(*) OVER () AS size
                            FROM orders o)
            SELECT r.id, r.account_id, r.status, r.placed_at, i.product_id, i.quantity
            FROM simulated_io
            LEFT JOIN (ranked r LEFT JOIN order_items i ON i.order_id = r.id)
                   ON r.rank >= ? * r.size / ? AND r.rank < (? + 1) * r.size / ?
            ORDER BY r.rank, i.line""";
    /** Parameters: the sleep (s), the order's id. */
    static final String ITEM = """
            WITH simulated_io AS MATERIALIZED (SELECT pg_sleep(?))
            SELECT o.id, o.account_id, o.status, o.placed_at, i.product_id, i.quantity
            FROM simulated_io
            LEFT JOIN (orders o LEFT JOIN order_items i ON i.order_id = o.id) ON o.id = ?
            ORDER BY i.line""";
    /** Parameter: the sleep (s). */
    static final String WAIT = "SELECT pg_sleep(?)";

    private OrderLines() {
    }

    /**
     * One row of {@link #PART} or {@link #ITEM}; all null but nothing else for the sleep's own row (no order matched),
     * product and quantity null for an order without lines.
     */
    record Line(@Nullable String id, @Nullable String accountId, @Nullable String status,
                @Nullable OffsetDateTime placedAt, @Nullable String productId, @Nullable Integer quantity) {
    }

    /**
     * @param sql {@link #PART}, {@link #ITEM} or {@link #WAIT}, with JDBC's {@code ?} parameters
     * @return the same with PostgreSQL's numbered parameters ({@code $1}, {@code $2}, ...), as R2DBC's driver takes
     *         them
     */
    static String numbered(String sql) {
        StringBuilder out = new StringBuilder(sql.length() + 8);
        int n = 0;
        for (char c : sql.toCharArray()) {
            if (c == '?') {
                out.append('$').append(++n);
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    /** Folds the rows, one per order line in catalogue order, into orders shaped as catalogue.json's. */
    static ArrayNode fold(ObjectMapper json, List<Line> lines) {
        ArrayNode orders = json.createArrayNode();
        ObjectNode order = null;
        for (Line row : lines) {
            if (row.id() == null) {
                continue;   // the sleep's own row: no order matched
            }
            if (order == null || !Objects.equals(order.get("id").asString(), row.id())) {
                order = orders.addObject();
                order.put("id", row.id());
                order.put("accountId", row.accountId());
                order.put("status", row.status());
                order.put("placedAt", DateTimeFormatter.ISO_INSTANT.format(Objects.requireNonNull(row.placedAt())));
                order.putArray("items");
            }
            if (row.productId() != null) {
                ObjectNode item = ((ArrayNode) order.get("items")).addObject();
                item.put("productId", row.productId());
                item.put("quantity", Objects.requireNonNull(row.quantity()).intValue());
            }
        }
        return orders;
    }
}
