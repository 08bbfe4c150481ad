package io.podnuma.demo;

import java.util.List;

/**
 * The command line of {@code scripts/demo}.
 *
 * @param keepRunning {@code --keep-running}: after the journey, keep the real node, the installed chart and the
 *     quickstart policy (or, where there is no real node, the control plane) for the user to try, until SIGINT or
 *     SIGTERM
 */
public record DemoOptions(boolean keepRunning) {

    public static final String USAGE = """
            usage: scripts/demo [--keep-running]
              --keep-running  after the journey, keep the real node, the installed chart and the quickstart policy
                              running and print how to reach them (KUBECONFIG, kubectl, an example pod); Ctrl-C
                              (SIGINT) or SIGTERM tears everything down and leaves the host as it was
            """;

    /** Refuses what it does not know, with the usage: a misspelt option must not run a 10-minute demo without it. */
    public static DemoOptions parse(List<String> args) {
        boolean keep = false;
        for (String arg : args) {
            if (!arg.equals("--keep-running")) {
                throw new IllegalArgumentException("unknown argument '" + arg + "'\n" + USAGE);
            }
            keep = true;
        }
        return new DemoOptions(keep);
    }
}
