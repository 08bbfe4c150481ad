package io.podnuma.operator.cli;

import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code operator} command line. */
@Command(
        name = "operator",
        mixinStandardHelpOptions = true,
        versionProvider = Main.Version.class,
        description = "podnuma operator: NumaResourcePolicy → labelled nodes, agent DaemonSets, policy status.",
        subcommands = {RunCommand.class})
public final class Main implements Runnable {

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(execute(new PrintWriter(System.out, true), new PrintWriter(System.err, true), args));
    }

    /** Runs the command line with the given streams; returns the exit code (0 ok, 1 failure, 2 usage). */
    public static int execute(PrintWriter out, PrintWriter err, String... args) {
        CommandLine cl = new CommandLine(new Main());
        RunCommand.listSettingsInHelp(cl.getSubcommands().get(RunCommand.NAME));
        cl.setOut(out);
        cl.setErr(err);
        return cl.execute(args);
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = Main.class.getPackage().getImplementationVersion();
            return new String[] {"podnuma operator " + (v == null ? "(development build)" : v)};
        }
    }
}
