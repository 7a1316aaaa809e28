package lab.fanout.bench.cli;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code .lab/run/system.json}: what ./lab up wrote reads back; a pid counts only while it runs the same program. */
class RunStateTest {

    @Test
    void savedStateReadsBackAndIsJsonForScripts(@TempDir Path repo) throws Exception {
        Workspace ws = new Workspace(repo);
        RunState state = RunState.load(ws);
        state.put("main-service", 4242, 2222, 9222);
        state.put(RunState.PROMETHEUS, 4343, 9090, null);
        state.knobs("--profile platform --pool-size 10");
        state.save();

        RunState read = RunState.load(ws);
        assertThat(read.port("main-service")).contains(2222);
        assertThat(read.managementPort("main-service")).contains(9222);
        assertThat(read.managementPort(RunState.PROMETHEUS)).isEmpty();
        assertThat(read.knobs()).isEqualTo("--profile platform --pool-size 10");
        assertThat(Files.readString(repo.resolve(".lab/run/system.json")))
                .contains("\"main-service\"", "\"pid\" : 4242", "\"managementPort\" : 9222").doesNotContain("\"file\"");

        read.remove("main-service");
        read.remove(RunState.PROMETHEUS);
        read.save();
        assertThat(repo.resolve(".lab/run/system.json")).doesNotExist();
        assertThat(RunState.load(ws).knobs()).isEqualTo("?");
    }

    @Test
    void aPidCountsOnlyWhileItRunsTheSameProgram(@TempDir Path repo) throws Exception {
        RunState state = RunState.load(new Workspace(repo));
        // this JVM is alive but is no main-service.jar: a stale pid, reused by another program
        state.put("main-service", ProcessHandle.current().pid(), 2222, 9222);
        // "$0" of sh names the program, so its command line says orders-service.jar
        Process orders = new ProcessBuilder("sh", "-c", "sleep 30", "orders-service.jar").start();
        state.put("orders-service", orders.pid(), 8082, 9082);

        assertThat(state.process("main-service")).isEmpty();
        assertThat(state.running()).containsOnlyKeys("orders-service");

        state.stop(RunState.names());
        assertThat(orders.waitFor()).isNotZero();   // SIGTERM
        assertThat(state.running()).isEmpty();
        assertThat(state.port("main-service")).isEmpty();
    }

    @Test
    void zipkinIsNoServiceAndDownStopsIt(@TempDir Path repo) throws Exception {   // issue 42
        RunState state = RunState.load(new Workspace(repo));
        Process main = new ProcessBuilder("sh", "-c", "sleep 30", "main-service.jar").start();
        Process zipkin = new ProcessBuilder("sh", "-c", "sleep 30", "zipkin-server.jar").start();
        state.put("main-service", main.pid(), 2222, 9222);
        state.put(RunState.ZIPKIN, zipkin.pid(), 9411, null);

        assertThat(state.running()).containsOnlyKeys("main-service", RunState.ZIPKIN);
        assertThat(state.runningServices()).containsOnlyKeys("main-service");
        assertThat(RunState.names()).endsWith(RunState.PROMETHEUS, RunState.ZIPKIN);

        state.stop(RunState.names());
        assertThat(zipkin.waitFor()).isNotZero();
        assertThat(main.waitFor()).isNotZero();
        assertThat(state.running()).isEmpty();
    }

    @Test
    void aPidOfAnotherProgramIsNoZipkin(@TempDir Path repo) {
        RunState state = RunState.load(new Workspace(repo));
        state.put(RunState.ZIPKIN, ProcessHandle.current().pid(), 9411, null);
        assertThat(state.process(RunState.ZIPKIN)).isEmpty();
    }
}
