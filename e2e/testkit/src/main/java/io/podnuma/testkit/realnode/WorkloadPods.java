package io.podnuma.testkit.realnode;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.podnuma.controlplane.ControlPlane;
import io.podnuma.controlplane.LocalControlPlane;
import io.podnuma.controlplane.RealNode;
import io.podnuma.testkit.cpu.CpuList;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Pods of the workload image on the real node: every container is the process that reports its own affinity, so a
 * test asks the container itself ({@code kubectl exec ... /workload report}) where it may run.
 */
public final class WorkloadPods {

    private static final Pattern REPORT = Pattern.compile("affinity cpus=(\\S*) mems=(\\S*)");

    private WorkloadPods() {}

    /** What a container says it may use: {@code Cpus_allowed_list} and {@code Mems_allowed_list}. */
    public record Affinity(CpuList cpus, String mems) {}

    /** {@code pod} with every container (sidecars too) running the workload {@code image}, never pulled. */
    public static Pod ofImage(Pod pod, String image) {
        Pod copy = new PodBuilder(pod).build();
        List<Container> all = new ArrayList<>(copy.getSpec().getContainers());
        if (copy.getSpec().getInitContainers() != null) {
            all.addAll(copy.getSpec().getInitContainers());
        }
        for (Container c : all) {
            c.setImage(image);
            c.setImagePullPolicy("Never");
        }
        copy.getSpec().setTerminationGracePeriodSeconds(5L);
        // The real node has no cluster DNS; ClusterFirst would only add a MissingClusterDNS Warning to every pod.
        copy.getSpec().setDnsPolicy("Default");
        return copy;
    }

    /** Creates the pod and waits until each container runs; returns each container's process id by name. */
    public static Map<String, Long> run(
            LocalControlPlane plane, RealNode node, String namespace, Pod pod, String image) {
        plane.client()
                .pods()
                .inNamespace(namespace)
                .resource(ofImage(pod, image))
                .create();
        return pids(node, node.awaitRunning(namespace, pod.getMetadata().getName()));
    }

    /** Each container's process id by name, for a pod that runs. */
    public static Map<String, Long> pids(RealNode node, Pod running) {
        List<ContainerStatus> statuses = new ArrayList<>(running.getStatus().getContainerStatuses());
        if (running.getStatus().getInitContainerStatuses() != null) {
            statuses.addAll(running.getStatus().getInitContainerStatuses());
        }
        Map<String, Long> pids = new LinkedHashMap<>();
        for (ContainerStatus s : statuses) {
            pids.put(
                    s.getName(),
                    node.containerPid(s.getContainerID())
                            .orElseThrow(() -> new AssertionError(
                                    "no running task for " + s.getName() + " (" + s.getContainerID() + ")")));
        }
        return pids;
    }

    /**
     * Every affinity a container of {@code pod} printed, in order, from the kubelet's log file of its first run
     * ({@code <podLogsDir>/<namespace>_<pod>_<uid>/<container>/0.log}, CRI format {@code <time> stdout F <line>}):
     * the first one is what the process saw as its very first action. Empty while the file is not there.
     */
    public static List<Affinity> logged(RealNode node, Pod pod, String container) {
        Path file = node.podLogsDir()
                .resolve(pod.getMetadata().getNamespace() + "_"
                        + pod.getMetadata().getName() + "_" + pod.getMetadata().getUid())
                .resolve(container)
                .resolve("0.log");
        List<Affinity> seen = new ArrayList<>();
        if (!Files.isRegularFile(file)) {
            return seen;
        }
        try {
            for (String line : Files.readAllLines(file)) {
                affinityIn(line).ifPresent(seen::add);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
        return seen;
    }

    /**
     * {@link #logged} once the container printed its first affinity: a container the kubelet reports running may not
     * have written its first line yet (or the kubelet not yet copied it to the log file).
     */
    public static List<Affinity> awaitLogged(RealNode node, Pod pod, String container, Duration within)
            throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        while (true) {
            List<Affinity> seen = logged(node, pod, container);
            if (!seen.isEmpty()) {
                return seen;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("container " + pod.getMetadata().getName() + "/" + container
                        + " printed no affinity within " + within.toSeconds() + " s");
            }
            TimeUnit.MILLISECONDS.sleep(100);
        }
    }

    /** The CPUs the container says it may use: {@code Cpus_allowed_list} of a process exec'd into it. */
    public static CpuList reportedCpus(ControlPlane plane, String namespace, String pod, String container) {
        return reported(plane, namespace, pod, container).cpus();
    }

    /** The CPUs and memory nodes the container says it may use, from a process exec'd into it. */
    public static Affinity reported(ControlPlane plane, String namespace, String pod, String container) {
        String out = plane.kubectl("exec", "-n", namespace, pod, "-c", container, "--", "/workload", "report")
                .assertSuccess()
                .stdout();
        return affinityIn(out)
                .orElseThrow(() -> new AssertionError(
                        "the workload in " + pod + "/" + container + " reported '" + out.strip() + "'"));
    }

    /** The affinity a workload's report ({@code affinity cpus=<list> mems=<list>}) in {@code text} says, if any. */
    public static Optional<Affinity> affinityIn(String text) {
        Matcher m = REPORT.matcher(text);
        return m.find() ? Optional.of(new Affinity(CpuList.parse(m.group(1)), m.group(2))) : Optional.empty();
    }
}
