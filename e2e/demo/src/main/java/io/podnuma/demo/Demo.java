package io.podnuma.demo;

import io.podnuma.controlplane.CommandResult;
import io.podnuma.controlplane.ControlPlaneUnavailableException;
import io.podnuma.controlplane.LocalControlPlane;
import io.podnuma.demo.journey.GuestNodeDemo;
import io.podnuma.demo.journey.HelmJourneyDemo;
import io.podnuma.demo.pinning.PinningDemo;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The README's main job on the embedded default: a real local control plane on this machine, podnuma's CRDs,
 * the sample policies (accepted) and a set of broken ones (rejected with the message a user sees),
 * {@code kubectl describe} of a policy; then the helm journey on a real worker node of this machine
 * ({@link HelmJourneyDemo}, or where there is none the node agent pinning real processes, {@link PinningDemo}); then
 * the journey on a multi-NUMA cgroup v2 worker node in a QEMU guest ({@link GuestNodeDemo}). Each part that this
 * machine cannot run is skipped with the reason.
 *
 * <p>With {@code --keep-running} ({@link DemoOptions}) the real-node journey stops before its uninstall and becomes a
 * {@link Playground}: the node, the chart and the quickstart policy stay up until SIGINT or SIGTERM, then everything
 * is torn down and the host checked (the guest part is not run). Where there is no real node, the demo's control plane
 * with the sample policies is kept instead.
 */
public final class Demo {

    /**
     * The pinning part runs on this kwok node, in this namespace, under this sample policy, with CPU 0 reserved
     * (the sample names an m7i.metal's CPUs).
     */
    private static final PinningDemo.Settings PINNING =
            new PinningDemo.Settings("demo-node", "podnuma-demo", "pod-scope-hybrid", "0");

    private final Path root;
    private final PrintStream out;
    private final DemoOptions options;

    private Demo(Path root, PrintStream out, DemoOptions options) {
        this.root = root;
        this.out = out;
        this.options = options;
    }

    public static void main(String[] args) throws Exception {
        DemoOptions options;
        try {
            options = DemoOptions.parse(List.of(args));
        } catch (IllegalArgumentException e) {
            System.err.println("podnuma demo: " + e.getMessage());
            System.exit(2);
            return;
        }
        Path root = Path.of(System.getProperty("podnuma.root", "../.."))
                .toAbsolutePath()
                .normalize();
        if (!Files.isDirectory(root.resolve("crds/generated"))) {
            throw new IllegalStateException("podnuma.root=" + root + " is not the repository root (no crds/generated)");
        }
        boolean hostClean = true;
        try (LocalControlPlane plane = LocalControlPlane.start()) {
            Demo demo = new Demo(root, System.out, options);
            Kept kept = demo.run(plane);
            if (kept instanceof Kept.OnRealNode onNode) {
                hostClean = onNode.leftovers().isEmpty();
            } else if (options.keepRunning()) {
                // No real node here: the control plane with the CRDs and the sample policies is what there is to try.
                new Playground(
                                plane.kubeconfig(),
                                plane.binDir(),
                                Optional.empty(),
                                List.of(
                                        "kubectl get nrp; kubectl describe nrp pod-scope-hybrid",
                                        "kubectl explain nrp.spec"))
                        .hold(System.out, StopSignal.install(System.out));
            }
        }
        if (!hostClean) {
            System.exit(1);
        }
    }

    /** What {@link #run} kept running for the user, if anything. */
    private sealed interface Kept {
        record Nothing() implements Kept {}

        /** The playground on the real node ran and was torn down; what the node left on the host (empty: clean). */
        record OnRealNode(List<String> leftovers) implements Kept {}
    }

    private Kept run(LocalControlPlane plane) throws Exception {
        section("Local control plane");
        out.println(plane.kubectl("version").assertSuccess().stdout().strip());
        out.println("API server: " + plane.server());

        section("Install the CRDs generated from the Java types (crds/generated)");
        for (Path crd : yamlFiles(root.resolve("crds/generated"))) {
            out.println(plane.kubectl("apply", "--server-side", "--field-manager=podnuma-demo", "-f", crd.toString())
                    .assertSuccess()
                    .stdout()
                    .strip());
        }
        plane.kubectl("wait", "--for=condition=Established", "--timeout=60s", "crd/numaresourcepolicies.podnuma.io")
                .assertSuccess();

        section("Sample policies (crds/examples): accepted");
        for (Path example : yamlFiles(root.resolve("crds/examples"))) {
            CommandResult result = plane.kubectl("apply", "-f", example.toString());
            out.printf("  %-28s %s%n", example.getFileName(), firstLine(result));
        }
        out.println();
        out.println(plane.kubectl("get", "nrp").assertSuccess().stdout().strip());

        section("Broken policies (crds/src/test/resources/invalid): rejected by the API server");
        List<String> unexpectedlyAccepted = new ArrayList<>();
        for (Path invalid : yamlFiles(root.resolve("crds/src/test/resources/invalid"))) {
            CommandResult result = plane.kubectl("apply", "--dry-run=server", "-f", invalid.toString());
            if (result.exitCode() == 0) {
                unexpectedlyAccepted.add(invalid.getFileName().toString());
            }
            out.printf("  %-44s %s%n", invalid.getFileName(), reason(result));
        }

        section("kubectl describe nrp pod-scope-hybrid");
        out.println(plane.kubectl("describe", "nrp", "pod-scope-hybrid")
                .assertSuccess()
                .stdout()
                .strip());

        section("kubectl explain nrp.spec.cpuManager.reservedCpus");
        out.println(plane.kubectl("explain", "nrp.spec.cpuManager.reservedCpus")
                .assertSuccess()
                .stdout()
                .strip());

        if (!unexpectedlyAccepted.isEmpty()) {
            throw new IllegalStateException(
                    "the API server accepted policies that should be rejected: " + unexpectedlyAccepted);
        }

        HelmJourneyDemo journey =
                new HelmJourneyDemo(root, root.resolve("e2e/demo/target/journey"), projectVersion(), out);
        Optional<String> noRealNode = journey.unavailable();
        if (noRealNode.isEmpty() && options.keepRunning()) {
            section("The user journey: helm install, a policy, pinned pods, Prometheus; then a playground");
            List<String> leftovers = journey.runAndKeep(() -> StopSignal.install(out));
            section("The journey on a QEMU guest node: skipped with --keep-running (the playground was the end)");
            return new Kept.OnRealNode(leftovers);
        }
        if (noRealNode.isEmpty()) {
            section("The user journey: helm install, a policy, pinned pods, Prometheus, helm uninstall");
            journey.run();
        } else {
            section("The user journey on a real worker node: skipped");
            out.println(
                    "Skipped: " + noRealNode.get() + "; the node agent runs as a process beside a kwok node instead.");
            Optional<String> cannotPin = PinningDemo.unavailable();
            if (cannotPin.isPresent()) {
                section("The node agent pinning real processes: skipped");
                out.println("Skipped: " + cannotPin.get() + ".");
            } else {
                new PinningDemo(plane, PINNING, out).run();
            }
        }
        guestNode();
        section("Done");
        return new Kept.Nothing();
    }

    /** The pods on two NUMA nodes and cgroup v2: a QEMU guest worker node, where this machine can boot one. */
    private void guestNode() throws Exception {
        section("Two NUMA nodes, cgroup v2: a worker node in a QEMU guest (2 sockets × 2 cores × 2 threads)");
        GuestNodeDemo guest = new GuestNodeDemo(
                root,
                root.resolve("e2e/demo/target/guest"),
                projectVersion(),
                out,
                GuestNodeDemo.Length.fromProperty(GuestNodeDemo.Length.FULL));
        Optional<String> cannot = guest.unavailable();
        if (cannot.isPresent()) {
            out.println("Skipped: " + cannot.get() + ".");
            return;
        }
        try {
            GuestNodeDemo.GuestReport report = guest.run();
            out.printf("%nthe guest node's part took %.0f s%n", report.whole().toMillis() / 1e3);
        } catch (ControlPlaneUnavailableException e) {
            out.println("Skipped: no guest can boot on this machine: " + e.getMessage() + ".");
        }
    }

    /** The images' tag: the project version the build filtered into {@code version.properties}. */
    private static String projectVersion() throws IOException {
        java.util.Properties p = new java.util.Properties();
        try (var in = Demo.class.getResourceAsStream("version.properties")) {
            if (in == null) {
                throw new IllegalStateException(
                        "no version.properties on the class path: run the demo's package first");
            }
            p.load(in);
        }
        return p.getProperty("version");
    }

    private void section(String title) {
        out.printf("%n== %s ==%n", title);
    }

    private static String firstLine(CommandResult result) {
        String text = result.exitCode() == 0 ? result.stdout() : "FAILED: " + result.stderr();
        return text.strip().lines().findFirst().orElse("");
    }

    /** The part of kubectl's rejection that names the field and the rule, on one line. */
    private static String reason(CommandResult result) {
        if (result.exitCode() == 0) {
            return "ACCEPTED (unexpected)";
        }
        String text = String.join(" ", result.stderr().strip().lines().toList());
        int idx = text.indexOf("is invalid: ");
        return "rejected: " + (idx >= 0 ? text.substring(idx + "is invalid: ".length()) : text);
    }

    private static List<Path> yamlFiles(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(
                            p -> p.toString().endsWith(".yaml") || p.toString().endsWith(".yml"))
                    .sorted()
                    .toList();
        }
    }
}
