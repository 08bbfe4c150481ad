package io.podnuma.agent.cli;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.podnuma.agent.config.AgentConfig;
import io.podnuma.agent.config.AgentConfigException;
import io.podnuma.agent.config.AgentConfigLoader;
import io.podnuma.agent.config.Setting;
import io.podnuma.agent.pods.UnreadPodFields;
import io.podnuma.agent.runtime.AgentDaemon;
import io.podnuma.crds.settings.SettingsHelp;
import io.podnuma.logging.Level;
import io.podnuma.logging.Logs;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code run}: the DaemonSet's command. Every setting of the configuration file can be given as {@code --<flag>
 * value} or {@code --<flag>=value} ({@code run --help} lists them); the API server is found like kubectl finds it
 * (in-cluster service account, else {@code KUBECONFIG}).
 */
@Command(
        name = RunCommand.NAME,
        mixinStandardHelpOptions = true,
        description = "Run the node agent: pin this node's pods, serve PodResources and metrics, until SIGTERM.")
final class RunCommand implements Callable<Integer> {

    static final String NAME = "run";

    /** The options {@code mixinStandardHelpOptions} adds: picocli answers them. */
    private static final Set<String> STANDARD_OPTIONS = Set.of("-h", "--help", "-V", "--version");

    /** How long a SIGTERM during the start waits for it (the kubelet's grace period is 30 s by default). */
    static final long START_WAIT_SECONDS = 15;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @CommandLine.Unmatched
    private List<String> settings = new java.util.ArrayList<>();

    @Override
    public Integer call() throws InterruptedException {
        return run(settings, spec.commandLine().getErr());
    }

    /**
     * Whether {@code args} is {@code run} with settings only, which {@link #run} handles without picocli; a help or
     * version option goes through picocli, which answers it.
     */
    static boolean isDirect(String... args) {
        if (args.length == 0 || !args[0].equals(NAME)) {
            return false;
        }
        for (int i = 1; i < args.length; i++) {
            if (STANDARD_OPTIONS.contains(args[i])) {
                return false;
            }
        }
        return true;
    }

    /**
     * Puts every setting into {@code run}'s help, after the options. A function, so the list is made only when help is
     * printed; {@code run} itself never comes here (see {@link Main#execute}).
     */
    static void listSettingsInHelp(CommandLine run) {
        run.getHelpSectionMap().put(CommandLine.Model.UsageMessageSpec.SECTION_KEY_FOOTER, help -> settingsHelp());
    }

    static String settingsHelp() {
        return SettingsHelp.section(
                new SettingsHelp.Row(
                        AgentConfigLoader.CONFIG_FLAG,
                        AgentConfigLoader.CONFIG_ENV,
                        AgentConfigLoader.DEFAULT_FILE,
                        "the configuration file (kind NodeAgentConfig, see node-agent/examples/agent.yaml): the"
                                + " policy, and any setting below under its key (metricsPort for --metrics-port)"),
                Stream.of(Setting.values()).map(Setting::helpRow));
    }

    /** Starts the agent with {@code settings} and serves until SIGTERM; the exit code (0 stopped, 1 failed, 2 usage). */
    static int run(List<String> settings, PrintWriter err) throws InterruptedException {
        Map<String, String> flags;
        try {
            flags = flags(settings);
        } catch (IllegalArgumentException e) {
            err.println("error: " + e.getMessage());
            return 2;
        }
        AgentConfig config;
        try {
            config = AgentConfigLoader.load(flags, System.getenv());
        } catch (AgentConfigException e) {
            err.println("error: invalid configuration:\n" + e.getMessage());
            return 2;
        }
        // Before the client and the daemon log anything: every logger made so far reads the new threshold too.
        Logs.configure(Level.valueOf(config.logLevel().name()), config.logFormat());
        KubernetesClient client = new KubernetesClientBuilder()
                .withKubernetesSerialization(UnreadPodFields.serialization())
                .build();
        // The hook is there before the start: a SIGTERM while the agent starts waits for the start to finish and
        // then stops it the same way (keeping or restoring pins), instead of leaving it half made.
        AtomicReference<AgentDaemon> running = new AtomicReference<>();
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            try {
                                started.await(START_WAIT_SECONDS, TimeUnit.SECONDS);
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                            AgentDaemon daemon = running.get();
                            if (daemon != null) {
                                daemon.shutdown();
                            }
                            client.close();
                            stopped.countDown();
                        },
                        "podnuma-agent-shutdown"));
        try {
            running.set(AgentDaemon.start(config, client, Optional.empty()));
        } catch (IllegalStateException e) {
            err.println("error: the agent cannot start: " + e.getMessage());
            return 1;
        } finally {
            started.countDown();
        }
        stopped.await();
        return 0;
    }

    /** {@code --key value} and {@code --key=value} pairs, keys without the dashes. */
    static Map<String, String> flags(List<String> args) {
        Map<String, String> out = new LinkedHashMap<>();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (!a.startsWith("--") || a.length() == 2) {
                throw new IllegalArgumentException("unexpected argument \"" + a + "\": settings are given as --<flag>"
                        + " <value> or --<flag>=<value>");
            }
            int eq = a.indexOf('=');
            if (eq > 0) {
                out.put(a.substring(2, eq), a.substring(eq + 1));
            } else if (i + 1 < args.size()) {
                out.put(a.substring(2), args.get(++i));
            } else {
                throw new IllegalArgumentException("flag " + a + " has no value");
            }
        }
        return out;
    }
}
