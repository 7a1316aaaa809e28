package lab.fanout.main;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * main-service's packages depend one way (issue 71 item 3): the server adapters, server.servlet (Spring MVC on Tomcat)
 * and server.reactive (WebFlux on Reactor Netty), over what both bind (server: the parameters' converters, the
 * observation tags and the failures' mapping to HTTP), over a server-free core, web -> strategy -> client -> config
 * and admission -> config, with no cycle (gh-15 item 10: client and config imported each other). Read from the
 * sources' imports, so a new edge fails here with its file named.
 */
class PackageDependenciesTest {

    private static final Path SOURCES = Path.of("src/main/java/lab/fanout/main");
    /** An import of a main-service type: group 1 its package below lab.fanout.main, dotted. */
    private static final Pattern IMPORT = Pattern.compile(
            "^import (?:static )?lab\\.fanout\\.main\\.([a-z]\\w*(?:\\.[a-z]\\w*)*)\\.[A-Z]", Pattern.MULTILINE);
    private static final Map<String, Set<String>> ALLOWED = Map.of(
            "server.servlet", Set.of("server", "web", "strategy", "client", "admission", "config"),
            "server.reactive", Set.of("server", "web", "strategy", "client", "admission", "config"),
            // client, admission: FanoutProblems maps their FanoutException and Refusal to HTTP
            "server", Set.of("strategy", "client", "admission"),
            "admission", Set.of("config"),
            "web", Set.of("strategy", "client", "config"),
            "strategy", Set.of("client", "config"),   // config: the bounded pool's size
            "client", Set.of("config"),
            "config", Set.of());
    /** The server-free core (issue 71 item 3): what a server adapter calls, whichever server it adapts. */
    private static final List<String> CORE = List.of("admission", "client", "config", "strategy", "web");
    /**
     * A server's types: the Servlet API, Spring MVC, WebFlux's server side, Spring's server HTTP abstractions, Reactor
     * Netty's server, Tomcat and Boot's server factories. WebFlux's client ({@code web.reactive.function.client},
     * WebClient) is the downstream client's, not a server's, so it is left out.
     */
    private static final Pattern SERVER_TYPE = Pattern.compile("^import (?:static )?((?:jakarta\\.servlet"
            + "|org\\.springframework\\.web\\.servlet|org\\.springframework\\.web\\.reactive\\.(?!function\\.client\\.)"
            + "|org\\.springframework\\.web\\.server|org\\.springframework\\.http\\.server"
            + "|reactor\\.netty\\.http\\.server|reactor\\.netty\\.(?:ChannelPipelineConfigurer|ConnectionObserver)"
            + "|org\\.apache\\.(?:coyote|catalina|tomcat)"
            + "|org\\.springframework\\.boot\\.(?:tomcat|reactor\\.netty|web\\.servlet|webmvc|webflux))[\\w.]*)",
            Pattern.MULTILINE);

    @Test
    void packagesDependOneWay() throws IOException {
        Set<String> violations = new TreeSet<>();
        for (var entry : ALLOWED.entrySet()) {
            for (Path file : sources(entry.getKey())) {
                Matcher imported = IMPORT.matcher(Files.readString(file));
                while (imported.find()) {
                    String target = imported.group(1);
                    if (!target.equals(entry.getKey()) && !entry.getValue().contains(target)) {
                        violations.add(file.getFileName() + " (" + entry.getKey() + ") imports " + target);
                    }
                }
            }
        }
        assertThat(violations).isEmpty();
    }

    @Test
    void coreImportsNoServerType() throws IOException {
        assertThat(coreImports(SERVER_TYPE)).isEmpty();
    }

    /** @return each core file's import that {@code pattern} matches (group 1 the imported name), as "pkg/File imports" */
    private static Set<String> coreImports(Pattern pattern) throws IOException {
        Set<String> violations = new TreeSet<>();
        for (String pkg : CORE) {
            for (Path file : sources(pkg)) {
                pattern.matcher(Files.readString(file)).results()
                        .forEach(m -> violations.add(pkg + "/" + file.getFileName() + " imports " + m.group(1)));
            }
        }
        return violations;
    }

    /**
     * Spring web types the core may not import: anything under {@code org.springframework.web} but the downstream
     * clients' packages (RestClient's {@code web.client} and WebClient's {@code web.reactive.function.client}, whose
     * exceptions client.DownstreamFailures translates), and ProblemDetail: an answer's shape is an adapter's.
     */
    private static final Pattern WEB_TYPE = Pattern.compile("^import (?:static )?((?:org\\.springframework\\.web\\."
            + "(?!client\\.|reactive\\.function\\.client\\.)|org\\.springframework\\.http\\.ProblemDetail)[\\w.]*)",
            Pattern.MULTILINE);

    /** Fails on the core before FanoutException became a domain exception: it imported ErrorResponseException. */
    @Test
    void coreImportsNoWebAnswerType() throws IOException {
        assertThat(coreImports(WEB_TYPE)).isEmpty();
    }

    @Test
    void everyPackageIsListed() throws IOException {
        try (Stream<Path> files = Files.walk(SOURCES)) {
            assertThat(files.filter(file -> file.toString().endsWith(".java")).map(Path::getParent)
                    .filter(dir -> !dir.equals(SOURCES)).distinct()
                    .map(dir -> SOURCES.relativize(dir).toString().replace('/', '.')))
                    .containsExactlyInAnyOrderElementsOf(ALLOWED.keySet());
        }
    }

    /** @return the package's own source files, not its subpackages' */
    private static List<Path> sources(String pkg) throws IOException {
        try (Stream<Path> files = Files.list(SOURCES.resolve(pkg.replace('.', '/')))) {
            return files.filter(Files::isRegularFile).toList();
        }
    }
}
