package lab.fanout.bench.cli;

import java.io.UncheckedIOException;

import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/** {@code lab}: without a subcommand it prints its usage. */
@Command(name = "lab", mixinStandardHelpOptions = true, version = "fanout-lab 0.1.0",
        description = "Runs the fan-out lab locally and benchmarks its strategies.",
        subcommands = {Up.class, Down.class, Status.class, Bench.class, Profile.class, Compare.class,
                VerdictsCommand.class, Redraw.class, Rewrite.class, HelpCommand.class},
        footer = {"", "Also, handled by the ./lab script itself:",
                "  ./lab build          build all jars (./mvnw -B -q package -DskipTests)",
                "  ./lab test [args]    the project's tests: k8s checks, ./mvnw -B verify [args],",
                "                       then the lab on a real cluster (./lab cluster test)",
                "  ./lab kind up|load|status|down   the lab on a local kind cluster (scripts/kind.sh --help)",
                "  ./lab cluster up|check|down|exec CMD|test   a real single-node cluster built",
                "                       here (root; scripts/cluster.sh, k8s/README.md)",
                "Exit codes: 0 ok, 1 failure, 2 bad option (the message says the fix)."})
public final class LabCommand implements Runnable {

    @Spec
    CommandLine.Model.CommandSpec spec;

    public static CommandLine commandLine() {
        return new CommandLine(new LabCommand()).setExecutionExceptionHandler(LabCommand::failure);
    }

    /** Expected failures (a busy port, a missing tool, a service that did not start) print their message, no trace. */
    private static int failure(Exception e, CommandLine cl, CommandLine.ParseResult parsed) throws Exception {
        if (e instanceof IllegalStateException || e instanceof IllegalArgumentException
                || e instanceof UncheckedIOException) {
            cl.getErr().println("lab " + cl.getCommandName() + ": " + e.getMessage());
            return 1;
        }
        throw e;
    }

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }
}
