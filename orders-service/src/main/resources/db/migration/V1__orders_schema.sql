-- orders-service's catalogue as tables (orders.store=postgres). One row per order, one per order line; the JSON the
-- service answers is built from them in the shape of catalogue.json (PostgresCatalogueStore).
CREATE TABLE orders (
    id         text        PRIMARY KEY,
    position   integer     NOT NULL UNIQUE,   -- the order's place in the catalogue: the array and its slices follow it
    account_id text        NOT NULL,
    status     text        NOT NULL,
    placed_at  timestamptz NOT NULL
);

CREATE TABLE order_items (
    order_id   text    NOT NULL REFERENCES orders (id),
    line       integer NOT NULL,              -- the line's place within its order
    product_id text    NOT NULL,
    quantity   integer NOT NULL CHECK (quantity > 0),
    PRIMARY KEY (order_id, line)
);
