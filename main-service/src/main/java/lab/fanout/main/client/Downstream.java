package lab.fanout.main.client;

import java.net.URI;

import lab.fanout.main.config.FanoutProperties;

/** The three services one backoffice request fans out to, with the path each serves its catalogue on. */
public enum Downstream {
    ORDERS("orders-service", "/order/api/v1/orders"),
    PRODUCTS("products-service", "/product/api/v1/products"),
    ACCOUNTS("accounts-service", "/account/api/v1/accounts");

    private final String serviceName;
    private final String path;

    Downstream(String serviceName, String path) {
        this.serviceName = serviceName;
        this.path = path;
    }

    /** @return the service's name as problems, metrics and Server-Timing show it, e.g. {@code orders-service} */
    public String serviceName() {
        return serviceName;
    }

    /** @return the catalogue URL on the configured base URL, e.g. http://localhost:8082/order/api/v1/orders */
    URI catalogueUrl(FanoutProperties.Downstreams urls) {
        URI base = switch (this) {
            case ORDERS -> urls.orders();
            case PRODUCTS -> urls.products();
            case ACCOUNTS -> urls.accounts();
        };
        return URI.create(base.toString().replaceAll("/$", "") + path);
    }

    /** @return the Server-Timing metric name, e.g. {@code orders} */
    public String timingName() {
        return name().toLowerCase();
    }
}
