package io.podnuma.operator.cli;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.podnuma.crds.settings.SettingsHelp;
import io.podnuma.jvmmetrics.JvmProcessMetrics;
import io.podnuma.logging.Level;
import io.podnuma.logging.Logs;
import io.podnuma.operator.controller.PodnumaOperator;
import io.podnuma.operator.settings.OperatorSetting;
import io.podnuma.operator.settings.OperatorSettings;
import io.podnuma.operator.settings.OperatorSettingsException;
import io.podnuma.operator.settings.OperatorSettingsLoader;
import io.podnuma.securemetrics.KubeAccessReviews;
import io.podnuma.securemetrics.MetricsSecurity;
import io.podnuma.securemetrics.SecureServing;
import java.time.Clock;
import java.time.Duration;
import java.time.InstantSource;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code run}: the operator Deployment's command. Every setting can be given as {@code --<flag> value} or
 * {@code --<flag>=value} ({@code run --help} and the module's README list them); the API server is found like kubectl finds it
 * (in-cluster ServiceAccount, else {@code KUBECONFIG}). SIGTERM stops it gracefully: running reconciles finish, the
 * Lease is given up.
 */
@Command(
        name = RunCommand.NAME,
        mixinStandardHelpOptions = true,
        description = "Run the operator: reconcile NumaResourcePolicies until SIGTERM.")
final class RunCommand implements Callable<Integer> {

    static final String NAME = "run";

    /** See {@link #leaseClock()}. */
    static final String LEASE_CLOCK_OFFSET = "podnuma.operator.test.leaseClockOffset";

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @CommandLine.Unmatched
    private List<String> settings = new java.util.ArrayList<>();

    @Override
    public Integer call() throws InterruptedException {
        OperatorSettings config;
        try {
            config = OperatorSettingsLoader.load(flags(settings), System.getenv());
        } catch (IllegalArgumentException | OperatorSettingsException e) {
            spec.commandLine().getErr().println("error: " + e.getMessage());
            return 2;
        }
        // Before the client and the operator log anything: loggers made so far read the new threshold too.
        Logs.configure(Level.valueOf(config.logLevel().name()), config.logFormat());
        String identity = Objects.requireNonNullElse(
                System.getenv("POD_NAME"), Objects.requireNonNullElse(System.getenv("HOSTNAME"), "podnuma-operator"));
        KubernetesClient client = new KubernetesClientBuilder().build();
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        // The operator's own memory, CPU and JVM, read when scraped: alerts on its memory need no cAdvisor join.
        JvmProcessMetrics.register(registry.getPrometheusRegistry());
        AtomicBoolean live = new AtomicBoolean(true);
        AtomicReference<PodnumaOperator> running = new AtomicReference<>();
        Optional<SecureServing> secure;
        try {
            secure = secureServing(config, client, identity);
        } catch (IllegalArgumentException e) {
            spec.commandLine().getErr().println("error: cannot serve /metrics over https: " + e.getMessage());
            client.close();
            return 2;
        }
        OperatorHttp http = OperatorHttp.start(
                config.healthPort(),
                config.metricsPort(),
                secure,
                live::get,
                () -> running.get() != null && running.get().healthy(),
                registry);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            live.set(false);
                            PodnumaOperator op = running.get();
                            if (op != null) {
                                op.close();
                            }
                            http.close();
                            client.close();
                            stopped.countDown();
                        },
                        "podnuma-operator-shutdown"));
        try {
            boolean monitoring = client.hasApiGroup("monitoring.coreos.com", false);
            running.set(PodnumaOperator.start(
                    client,
                    config.reconcile(monitoring),
                    config.leaseName()
                            .map(name -> new PodnumaOperator.LeaderElection(
                                    name,
                                    config.leaseNamespace(),
                                    identity,
                                    config.leaseTimings(),
                                    leaseClock(),
                                    () -> {
                                        if (live.get()) {
                                            // Lost the Lease while running: the kubelet restarts this replica. No
                                            // graceful stop (as controller-runtime): the reconciles running now
                                            // would go on writing while a standby may already lead.
                                            spec.commandLine().getErr().println("error: lost the leader Lease " + name);
                                            spec.commandLine().getErr().flush();
                                            Runtime.getRuntime().halt(1);
                                        }
                                    })),
                    registry,
                    InstantSource.system(),
                    identity));
        } catch (RuntimeException e) {
            spec.commandLine().getErr().println("error: the operator cannot start: " + e.getMessage());
            return 1;
        }
        stopped.await();
        return 0;
    }

    /**
     * Puts every setting into {@code run}'s help, after the options. A function, so the list is made only when help is
     * printed, not on every start.
     */
    static void listSettingsInHelp(CommandLine run) {
        run.getHelpSectionMap().put(CommandLine.Model.UsageMessageSpec.SECTION_KEY_FOOTER, help -> settingsHelp());
    }

    static String settingsHelp() {
        return SettingsHelp.section(
                new SettingsHelp.Row(
                        OperatorSettingsLoader.CONFIG_FLAG,
                        OperatorSettingsLoader.CONFIG_ENV,
                        "",
                        "the settings file, a YAML map of the keys below (agentImage for --agent-image); empty: none,"
                                + " only flags, variables and defaults count"),
                Stream.of(OperatorSetting.values()).map(OperatorSetting::helpRow));
    }

    /**
     * The wall clock of the leader Lease's times: the system's, shifted by {@value #LEASE_CLOCK_OFFSET} (an ISO-8601
     * duration, e.g. {@code -PT5S}) when that JVM property is set. Test-only: the failover soak runs replicas whose
     * clocks disagree, as the clocks of two nodes may, on one machine.
     */
    static InstantSource leaseClock() {
        String offset = System.getProperty(LEASE_CLOCK_OFFSET);
        return offset == null
                ? InstantSource.system()
                : InstantSource.offset(InstantSource.system(), Duration.parse(offset));
    }

    /**
     * With {@code metricsSecurity: https}: the TLS context and token gate of {@code /metrics}; the reviews run under
     * the operator's own ServiceAccount (it needs {@code create} on tokenreviews and subjectaccessreviews).
     */
    private Optional<SecureServing> secureServing(OperatorSettings config, KubernetesClient client, String identity) {
        if (config.metricsSecurity() == MetricsSecurity.HTTP) {
            return Optional.empty();
        }
        SecureServing serving = SecureServing.create(
                config.metricsTls(),
                new KubeAccessReviews(client),
                "podnuma-operator",
                List.of(identity, "localhost", "127.0.0.1", "::1"),
                Clock.systemUTC());
        spec.commandLine()
                .getErr()
                .println("/metrics over https with " + serving.certificate()
                        + "; scrapes need a bearer token allowed to get /metrics");
        return Optional.of(serving);
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
