-- The orders of classpath:catalogue.json, the memory store's catalogue, row for row: the postgres store must answer
-- the same bytes (PostgresStoreIdenticalAnswersTest compares every answer). Written once from catalogue.json; a
-- change to either needs the same change to the other, in a new migration.
INSERT INTO orders (id, position, account_id, status, placed_at) VALUES
    ('ord-3001', 0, 'acc-1005', 'DELIVERED', '2026-10-01T09:00:00Z'),
    ('ord-3002', 1, 'acc-1002', 'PLACED', '2026-10-03T10:07:00Z'),
    ('ord-3003', 2, 'acc-1003', 'DELIVERED', '2026-10-05T11:14:00Z'),
    ('ord-3004', 3, 'acc-1005', 'SHIPPED', '2026-10-07T12:21:00Z'),
    ('ord-3005', 4, 'acc-1005', 'PLACED', '2026-10-09T13:28:00Z'),
    ('ord-3006', 5, 'acc-1003', 'SHIPPED', '2026-10-11T14:35:00Z'),
    ('ord-3007', 6, 'acc-1001', 'SHIPPED', '2026-10-13T15:42:00Z'),
    ('ord-3008', 7, 'acc-1005', 'DELIVERED', '2026-10-15T16:49:00Z'),
    ('ord-3009', 8, 'acc-1004', 'DELIVERED', '2026-10-17T09:56:00Z'),
    ('ord-3010', 9, 'acc-1003', 'SHIPPED', '2026-10-19T10:03:00Z'),
    ('ord-3011', 10, 'acc-1001', 'PLACED', '2026-10-21T11:10:00Z'),
    ('ord-3012', 11, 'acc-1004', 'SHIPPED', '2026-10-23T12:17:00Z');

INSERT INTO order_items (order_id, line, product_id, quantity) VALUES
    ('ord-3001', 0, 'prd-2004', 1),
    ('ord-3002', 0, 'prd-2010', 1),
    ('ord-3003', 0, 'prd-2010', 2),
    ('ord-3003', 1, 'prd-2007', 1),
    ('ord-3003', 2, 'prd-2001', 2),
    ('ord-3004', 0, 'prd-2009', 1),
    ('ord-3005', 0, 'prd-2003', 3),
    ('ord-3005', 1, 'prd-2002', 1),
    ('ord-3005', 2, 'prd-2004', 1),
    ('ord-3006', 0, 'prd-2004', 3),
    ('ord-3006', 1, 'prd-2008', 4),
    ('ord-3006', 2, 'prd-2007', 4),
    ('ord-3007', 0, 'prd-2003', 2),
    ('ord-3008', 0, 'prd-2008', 3),
    ('ord-3008', 1, 'prd-2006', 1),
    ('ord-3008', 2, 'prd-2010', 1),
    ('ord-3009', 0, 'prd-2006', 2),
    ('ord-3010', 0, 'prd-2002', 3),
    ('ord-3011', 0, 'prd-2008', 1),
    ('ord-3011', 1, 'prd-2010', 3),
    ('ord-3011', 2, 'prd-2002', 4),
    ('ord-3012', 0, 'prd-2005', 4),
    ('ord-3012', 1, 'prd-2008', 3),
    ('ord-3012', 2, 'prd-2010', 1);
