package lab.fanout.bench.system;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import lab.fanout.bench.model.ServiceDefaults;
import lab.fanout.bench.system.AotCache.Mode;
import lab.fanout.bench.system.LocalSystem.LaunchSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code --aot} end to end on the real four jars (copied into a scratch checkout, so its {@code .lab/aot} starts
 * empty): the first start trains and writes a cache per service, the start itself maps them. Asserts what the JVMs
 * logged, never a startup time.
 */
class AotIT {

    static final Path REPO = Path.of("..").toAbsolutePath().normalize();

    @Test
    void firstStartTrainsTheCachesAndTheServicesOpenThem(@TempDir Path repo) throws Exception {
        for (String s : ServiceDefaults.SERVICES) {
            Path jar = repo.resolve(s + "/target/" + s + ".jar");
            Files.createDirectories(jar.getParent());
            Files.copy(LocalSystem.jar(REPO, s), jar);
        }
        System.setProperty("lab.aotTrainingSeconds", "3");   // a few requests per strategy: this checks the mechanism
        LaunchSpec spec = LaunchSpec.custom(repo).latencyMs(20).freePorts(true).logDir(repo.resolve("logs"))
                .aot(Mode.USE).build();
        ByteArrayOutputStream progress = new ByteArrayOutputStream();

        try (LocalSystem system = LocalSystem.start(spec, false,
                new PrintStream(progress, true, StandardCharsets.UTF_8))) {
            assertThat(Http.ready(system.mainManagementUrl())).isTrue();
        }

        String out = progress.toString(StandardCharsets.UTF_8);
        assertThat(out).contains("training one").contains("AOT caches written").contains("(AOT cache: use)")
                .doesNotContain("started without its AOT cache");
        assertThat(AotCache.trained(repo)).isTrue();
        for (String s : ServiceDefaults.SERVICES) {
            assertThat(AotCache.cacheFile(AotCache.dir(repo, s), s)).isNotEmptyFile();
            assertThat(Files.readString(repo.resolve("logs/" + s + ".aot.log"))).contains("Opened AOT cache");
            assertThat(AotCache.loadProblem(repo.resolve("logs/" + s + ".aot.log"))).isEmpty();
        }
    }
}
