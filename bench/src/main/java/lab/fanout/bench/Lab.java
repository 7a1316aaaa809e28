package lab.fanout.bench;

import lab.fanout.bench.cli.LabCommand;

/** Entry point of {@code ./lab}: {@code java --enable-preview -jar bench/target/lab.jar <command>}. */
public final class Lab {

    private Lab() {
    }

    public static void main(String[] args) {
        System.exit(LabCommand.commandLine().execute(args));
    }
}
