package lab.fanout.bench.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.Spec;

/** {@code lab}: without a subcommand it prints its usage. */
@Command(name = "lab", mixinStandardHelpOptions = true, version = "fanout-lab 0.1.0",
        description = "Runs the fan-out lab locally and benchmarks its strategies.",
        subcommands = {HelpCommand.class})
public final class LabCommand implements Runnable {

    @Spec
    CommandLine.Model.CommandSpec spec;

    public static CommandLine commandLine() {
        return new CommandLine(new LabCommand());
    }

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }
}
