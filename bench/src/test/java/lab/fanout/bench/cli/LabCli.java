package lab.fanout.bench.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;

import picocli.CommandLine;

/** Runs {@code lab ARGS} in this JVM, as the ./lab script does. */
final class LabCli {

    private LabCli() {
    }

    /** @return exit code, then what the command printed to System.out and its error stream */
    static String[] run(String... args) {
        StringWriter err = new StringWriter();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream stdout = System.out;
        int exit;
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            CommandLine cli = LabCommand.commandLine();
            cli.setErr(new PrintWriter(err));
            exit = cli.execute(args);
        } finally {
            System.setOut(stdout);
        }
        return new String[] {String.valueOf(exit), out.toString(StandardCharsets.UTF_8) + err};
    }
}
