package io.podnuma.agent.cli;

import java.io.PrintWriter;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code node-agent} command line. */
@Command(
        name = "node-agent",
        mixinStandardHelpOptions = true,
        versionProvider = Main.Version.class,
        description = "podnuma node agent: exclusive NUMA-aligned CPUs and memory for pods.",
        subcommands = {RunCommand.class, TopologyCommand.class, SimulateCommand.class})
public final class Main implements Runnable {

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(execute(new PrintWriter(System.out, true), new PrintWriter(System.err, true), args));
    }

    /** Runs the command line with the given streams; returns the exit code (0 ok, 1 failure, 2 usage). */
    public static int execute(PrintWriter out, PrintWriter err, String... args) {
        // `run` (the DaemonSet's command, restarted on every rollout) reads its settings itself, so it goes straight
        // there: picocli would first build the model of every subcommand by reflection, from classes the JDK's AOT
        // cache cannot hold (picocli ships Java 5 bytecode, which is not linked ahead of time). That was ~0.2 s of
        // each start, before anything of the agent's own ran. Help and version still go through picocli.
        if (RunCommand.isDirect(args)) {
            try {
                return RunCommand.run(List.of(args).subList(1, args.length), err);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                err.println("error: interrupted while the agent ran");
                return 1;
            }
        }
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
            return new String[] {"podnuma node-agent " + (v == null ? "(development build)" : v)};
        }
    }
}
