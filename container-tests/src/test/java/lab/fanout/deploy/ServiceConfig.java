package lab.fanout.deploy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.ConfigurationPropertyState;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.context.annotation.ClassPathScanningCandidateComponentProvider;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.springframework.core.io.FileSystemResource;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;
import org.springframework.core.type.filter.AnnotationTypeFilter;

/**
 * A service's Spring configuration as it would be in a pod: the pod's environment variables over the module's
 * application.yml and the files it imports (spring.config.import, from any module's src/main/resources), with
 * the documents of the active profiles. Read from the sources, so that a change to either side is seen.
 */
final class ServiceConfig {

    private static final List<Path> RESOURCE_FOLDERS = modules().stream()
            .map(m -> Repo.path(m + "/src/main/resources")).filter(Files::isDirectory).toList();

    final String module;
    final Binder binder;

    private ServiceConfig(String module, Binder binder) {
        this.module = module;
        this.binder = binder;
    }

    /** @param environment the pod's environment variables (Manifests#environment) */
    static ServiceConfig of(String module, Map<String, String> environment) {
        PropertySource<?> pod = new SystemEnvironmentPropertySource("pod environment", Map.copyOf(environment));
        List<Document> documents = load(Repo.path(module + "/src/main/resources/application.yml"));
        // the active profiles come from the pod or the profile-less documents (spring.profiles.default)
        Binder base = binder(pod, documents, Set.of());
        Set<String> profiles = new LinkedHashSet<>(base.bind("spring.profiles.active", Bindable.listOf(String.class))
                .orElseGet(() -> base.bind("spring.profiles.default", Bindable.listOf(String.class))
                        .orElse(List.of("default"))));
        return new ServiceConfig(module, binder(pod, documents, profiles));
    }

    <T> T get(String name, Class<T> type, T otherwise) {
        return binder.bind(name, type).orElse(otherwise);
    }

    List<String> list(String name) {
        return binder.bind(name, Bindable.listOf(String.class)).orElse(List.of());
    }

    private static Binder binder(PropertySource<?> pod, List<Document> documents, Set<String> profiles) {
        MutablePropertySources sources = new MutablePropertySources();
        sources.addLast(pod);
        documents.stream().filter(d -> d.profile == null || profiles.contains(d.profile))
                .forEach(d -> sources.addLast(d.source));
        return new Binder(ConfigurationPropertySources.from(sources));
    }

    private record Document(PropertySource<?> source, String profile) {
    }

    /** @return the file's documents and its imports', highest precedence first (imports win, later documents win) */
    private static List<Document> load(Path file) {
        List<PropertySource<?>> sources;
        try {
            sources = new YamlPropertySourceLoader().load(file.toString(), new FileSystemResource(file));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<Document> own = new ArrayList<>();
        List<Document> imported = new ArrayList<>();
        for (PropertySource<?> source : sources) {
            Binder binder = new Binder(ConfigurationPropertySources.from(source));
            String profile = binder.bind("spring.config.activate.on-profile", String.class).orElse(null);
            own.addFirst(new Document(source, profile));
            for (String location : binder.bind("spring.config.import", Bindable.listOf(String.class)).orElse(List.of())) {
                imported.addAll(load(resolve(location, file)));
            }
        }
        imported.addAll(own);
        return imported;
    }

    private static Path resolve(String location, Path importer) {
        String name = location.replaceFirst("^(optional:)?classpath:/?", "");
        return RESOURCE_FOLDERS.stream().map(folder -> folder.resolve(name)).filter(Files::isRegularFile).findFirst()
                .orElseThrow(() -> new AssertionError(importer + " imports " + location + ", found in no module"));
    }

    /** @return the folders at the repository root that are Maven modules */
    static List<String> modules() {
        try (Stream<Path> children = Files.list(Repo.ROOT)) {
            return children.filter(d -> Files.isRegularFile(d.resolve("pom.xml")))
                    .map(d -> d.getFileName().toString()).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    // ---- which properties exist ------------------------------------------------------------------------------

    /**
     * The lab's {@code @ConfigurationProperties} classes that {@code module} has: its own and those of the lab
     * modules it depends on (pom.xml), found on the test class path.
     */
    static List<Class<?>> propertiesClasses(String module) {
        Set<String> reachable = labModulesOf(module);
        var scanner = new ClassPathScanningCandidateComponentProvider(false);
        scanner.addIncludeFilter(new AnnotationTypeFilter(ConfigurationProperties.class));
        List<Class<?>> classes = new ArrayList<>();
        for (BeanDefinition candidate : scanner.findCandidateComponents("lab.fanout")) {
            Class<?> type = load(candidate.getBeanClassName());
            String location = type.getProtectionDomain().getCodeSource().getLocation().getPath();
            if (reachable.stream().anyMatch(m -> location.contains("/" + m + "/target/") || location.contains("/" + m + "-"))) {
                classes.add(type);
            }
        }
        return classes;
    }

    private static Set<String> labModulesOf(String module) {
        Set<String> modules = new LinkedHashSet<>(List.of(module));
        Matcher dependency = Pattern.compile("<dependency>\\s*<groupId>lab\\.fanout</groupId>\\s*<artifactId>([^<]+)</artifactId>")
                .matcher(Repo.read(Repo.path(module + "/pom.xml")));
        while (dependency.find()) {
            modules.addAll(labModulesOf(dependency.group(1)));
        }
        return modules;
    }

    /** The property names a record class binds, e.g. {@code fanout.pool.max-total} (nested records recursed). */
    static Set<String> propertyNames(Class<?> type) {
        Set<String> names = new TreeSet<>();
        collect(type.getAnnotation(ConfigurationProperties.class).value(), type, names);
        return names;
    }

    private static void collect(String prefix, Class<?> type, Set<String> names) {
        for (RecordComponent component : type.getRecordComponents()) {
            String name = prefix + "." + component.getName().replaceAll("([A-Z])", "-$1").toLowerCase();
            if (component.getType().isRecord()) {
                collect(name, component.getType(), names);
            } else {
                names.add(name);
            }
        }
    }

    /** Spring Boot's own properties: every META-INF/spring-configuration-metadata.json on the class path. */
    static final Map<ConfigurationPropertyName, Boolean> BOOT_PROPERTIES = bootProperties();

    private static Map<ConfigurationPropertyName, Boolean> bootProperties() {
        ObjectMapper json = JsonMapper.builder().build();
        Map<ConfigurationPropertyName, Boolean> names = new java.util.HashMap<>();   // value: is a Map property
        try {
            for (Resource resource : new PathMatchingResourcePatternResolver()
                    .getResources("classpath*:META-INF/spring-configuration-metadata.json")) {
                for (JsonNode property : json.readTree(resource.getInputStream()).path("properties")) {
                    String name = property.path("name").asString();
                    if (ConfigurationPropertyName.isValid(name)) {
                        names.put(ConfigurationPropertyName.of(name), property.path("type").asString("").startsWith("java.util.Map"));
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return names;
    }

    /**
     * @return true if the environment variable {@code variable} sets {@code property} under Spring's relaxed
     * binding (FANOUT_POOL_MAX_TOTAL sets fanout.pool.max-total), or an entry of it if it is a Map property
     */
    static boolean sets(String variable, ConfigurationPropertyName property, boolean isMap) {
        ConfigurationPropertySource source = ConfigurationPropertySource.from(
                new SystemEnvironmentPropertySource("one variable", Map.of(variable, "x")));
        return source.getConfigurationProperty(property) != null
                || (isMap && source.containsDescendantOf(property) == ConfigurationPropertyState.PRESENT);
    }

    private static Class<?> load(String name) {
        try {
            return Class.forName(name);
        } catch (ClassNotFoundException e) {
            throw new AssertionError(e);
        }
    }

    static List<String> strategyNames() {
        Class<?> strategies = load("lab.fanout.main.strategy.StrategyName");
        return Arrays.stream(strategies.getEnumConstants()).map(String::valueOf).toList();
    }
}
