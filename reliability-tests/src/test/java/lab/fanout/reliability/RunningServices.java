package lab.fanout.reliability;

import java.nio.file.Path;

import lab.fanout.bench.model.ServiceDefaults;
import lab.fanout.bench.system.LocalSystem.LaunchSpec;
import lab.fanout.bench.system.LocalSystem;

/**
 * The four packaged services, started once for all the tests of this JVM (virtual profile, defaults otherwise, free
 * ports, logs in target/service-logs) and stopped by LocalSystem's shutdown hook when the JVM ends.
 */
final class RunningServices {

    static final Path REPO = Path.of("..").toAbsolutePath().normalize();

    private static LocalSystem system;
    private static RuntimeException failure;

    private RunningServices() {
    }

    /** @throws IllegalStateException if the services did not start, the first time and every time after */
    static synchronized LocalSystem get() {
        if (failure != null) {
            throw new IllegalStateException("the services did not start (see the first failure)", failure);
        }
        if (system == null) {
            try {
                system = LocalSystem.start(spec());
            } catch (RuntimeException e) {
                failure = e;
                throw e;
            }
        }
        return system;
    }

    static LaunchSpec spec() {
        return LaunchSpec.custom(REPO).freePorts(true).logDir(REPO.resolve("reliability-tests/target/service-logs"))
                .build();
    }

    /** @return the catalogue path a downstream serves, or main-service's endpoint */
    static String path(String service) {
        return switch (service) {
            case "orders-service" -> "/order/api/v1/orders";
            case "products-service" -> "/product/api/v1/products";
            case "accounts-service" -> "/account/api/v1/accounts";
            case ServiceDefaults.MAIN -> "/backoffice/api/v1/backoffice/orders";
            default -> throw new IllegalArgumentException(service);
        };
    }

    /** @return a query the service answers 200 to, to which a test may append {@code &name=value} */
    static String validQuery(String service) {
        return service.equals(ServiceDefaults.MAIN) ? "concurrency=scopeFork" : "";
    }
}
