package lab.fanout.common;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ForkJoinPool;

import jdk.management.VirtualThreadSchedulerMXBean;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import tools.jackson.databind.ObjectMapper;

import org.springframework.boot.actuate.info.Info;
import org.springframework.boot.actuate.info.InfoContributor;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.core.env.Environment;

/**
 * {@code knobs} at {@code /actuator/info}: the service's own {@link Knobs} records plus the runtime settings that
 * decide a benchmark (cores, request threads, Tomcat limits, common-pool parallelism, the virtual-thread scheduler's
 * carriers, the socket pollers' mode ({@link PollerMode}), the collector, the heap, the JVM's own options), read from
 * the running JVM, so that a {@code -D} or {@code -XX} option shows as its effect. Logged once when ready.
 */
public class KnobsInfoContributor implements InfoContributor {

    private static final Log log = LogFactory.getLog(KnobsInfoContributor.class);
    /** The virtual-thread scheduler: its parallelism is the carrier threads' count (JDK 24+'s management bean). */
    private static final VirtualThreadSchedulerMXBean CARRIERS =
            ManagementFactory.getPlatformMXBean(VirtualThreadSchedulerMXBean.class);

    private final Environment environment;
    private final List<Knobs> knobs;
    private final ObjectMapper json;

    KnobsInfoContributor(Environment environment, List<Knobs> knobs, ObjectMapper json) {
        this.environment = environment;
        this.knobs = knobs;
        this.json = json;
    }

    @Override
    public void contribute(Info.Builder builder) {
        builder.withDetail("knobs", knobs());
    }

    @EventListener(ApplicationReadyEvent.class)
    void logKnobs() {
        log.info("knobs: " + json.writeValueAsString(knobs()));
    }

    /**
     * The JDK's default when {@code jdk.virtualThreadScheduler.maxPoolSize} is unset: max(parallelism, 256), which lets
     * the scheduler add carriers while others are pinned or blocked in the file system (java.lang.VirtualThread).
     */
    static int carrierMaxPoolSize(int parallelism) {
        return Integer.getInteger("jdk.virtualThreadScheduler.maxPoolSize", Math.max(parallelism, 256));
    }

    /**
     * The JDK's default when {@code jdk.virtualThreadScheduler.minRunnable} is unset: max(parallelism ÷ 2, 1), the
     * carriers the scheduler keeps runnable when others block (java.lang.VirtualThread#createDefaultScheduler).
     */
    static int carrierMinRunnable(int parallelism) {
        return Integer.getInteger("jdk.virtualThreadScheduler.minRunnable", Math.max(parallelism / 2, 1));
    }

    /** @return the effective {@code jdk.pollerMode}'s name, or why it is not valid (the JDK fails on its first use) */
    static String pollerMode() {
        try {
            return PollerMode.effective().name();
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }

    Map<String, Object> knobs() {
        Map<String, Object> all = new LinkedHashMap<>();
        Map<String, Object> runtime = new LinkedHashMap<>();
        String[] profiles = environment.getActiveProfiles();
        runtime.put("profiles", Arrays.asList(profiles.length > 0 ? profiles : environment.getDefaultProfiles()));
        runtime.put("availableProcessors", Runtime.getRuntime().availableProcessors());
        // what set it: a cpuset (./lab up --main-cpus 1) or a CFS quota (--main-cpus 0.5, a pod's limits.cpu)
        runtime.put("cpuset", CpuLimits.cpuset());
        runtime.put("cpuQuotaUs", CpuLimits.quota());
        // main-service's netty profile: Spring WebFlux on Reactor Netty, where Tomcat's limits do not apply
        boolean netty = "reactive".equalsIgnoreCase(environment.getProperty("spring.main.web-application-type", ""));
        runtime.put("webServer", netty ? "reactor-netty" : "tomcat");
        runtime.put("virtualRequestThreads", environment.getProperty("spring.threads.virtual.enabled", Boolean.class, false));
        if (!netty) {
            // Tomcat's own defaults when unset; with virtual request threads threads.max has no effect (spring-boot#41937)
            runtime.put("tomcatThreadsMax", environment.getProperty("server.tomcat.threads.max", Integer.class, 200));
            runtime.put("tomcatMaxConnections", environment.getProperty("server.tomcat.max-connections", Integer.class,
                    8192));
            runtime.put("tomcatAcceptCount", environment.getProperty("server.tomcat.accept-count", Integer.class, 100));
        }
        runtime.put("commonPoolParallelism", ForkJoinPool.getCommonPoolParallelism());
        runtime.put("carrierParallelism", CARRIERS.getParallelism());
        runtime.put("carrierMaxPoolSize", carrierMaxPoolSize(CARRIERS.getParallelism()));
        runtime.put("carrierMinRunnable", carrierMinRunnable(CARRIERS.getParallelism()));
        runtime.put("pollerMode", pollerMode());
        runtime.put("garbageCollectors", ManagementFactory.getGarbageCollectorMXBeans().stream()
                .map(GarbageCollectorMXBean::getName).toList());
        runtime.put("maxHeapBytes", Runtime.getRuntime().maxMemory());
        // the options the JVM was started with (--enable-preview, ./lab up --jvm-option, a matrix's jvmOptions, and
        // JAVA_TOOL_OPTIONS first if set), so a table can say which -D made which figure
        runtime.put("jvmInputArguments", ManagementFactory.getRuntimeMXBean().getInputArguments());
        all.put("runtime", runtime);
        knobs.forEach(k -> all.put(k.prefix(), k));
        return all;
    }
}
