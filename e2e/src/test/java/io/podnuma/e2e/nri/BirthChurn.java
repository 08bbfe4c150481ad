package io.podnuma.e2e.nri;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.podnuma.controlplane.LocalControlPlane;
import io.podnuma.controlplane.RealNode;
import io.podnuma.testkit.cpu.CpuList;
import io.podnuma.testkit.pods.SamplePods;
import io.podnuma.testkit.realnode.WorkloadPods;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Pods that each start many containers on the real node, one pod after the other: a Guaranteed pod with a 1-CPU pod
 * budget (its bubble is the one CPU the policy does not reserve), {@code inits} init containers and {@code shorts} app
 * containers that print their affinity as their first action and exit, and one app container that prints it at start
 * and whenever it changes. A container is born pinned when its first line already names the pod's CPUs. (The kubelet
 * starts one init container per sync, about a second apart, and the app containers together: most starts are
 * short app containers.)
 */
final class BirthChurn {

    /** The pod-level annotation that makes the runtime refuse a container no {@code podnuma} plugin has seen. */
    static final String REQUIRED_PLUGINS = "required-plugins.noderesource.dev";

    private static final Duration RUNNING = Duration.ofSeconds(120);
    private final LocalControlPlane plane;
    private final RealNode node;
    private final String namespace;
    private final CpuList expected;

    /** One container's first report. */
    record Birth(String pod, String container, WorkloadPods.Affinity first) {}

    /** What a churn saw: every container start, and those whose first line was not the pod's CPUs. */
    record Tally(List<Birth> starts, List<Birth> unpinned, Duration took) {
        int count() {
            return starts.size();
        }

        String summary() {
            return starts.size() + " container starts in " + took.toMillis() + " ms, " + unpinned.size()
                    + " born outside the pod's CPUs" + (unpinned.isEmpty() ? "" : ": " + unpinned);
        }
    }

    /** @param expected the CPUs every container of a churn pod ends up on (the pod's bubble) */
    BirthChurn(LocalControlPlane plane, RealNode node, String namespace, CpuList expected) {
        this.plane = plane;
        this.node = node;
        this.namespace = namespace;
        this.expected = expected;
    }

    /** {@code pods} pods one after the other, each waited for (every container reported, app on its CPUs) and deleted. */
    Tally run(String prefix, int pods, int inits, int shorts) throws InterruptedException {
        long t0 = System.nanoTime();
        List<Birth> starts = new ArrayList<>();
        for (int i = 0; i < pods; i++) {
            Pod pod = create(prefix + "-" + i, inits, shorts, Map.of());
            Pod running = awaitRunning(pod.getMetadata().getName());
            awaitAppOnPodCpus(running);
            starts.addAll(births(running));
            delete(running);
        }
        return new Tally(
                starts,
                starts.stream().filter(b -> !onPodCpus(b.first())).toList(),
                Duration.ofNanos(System.nanoTime() - t0));
    }

    /** Creates a churn pod; {@code annotations} go on the pod. */
    Pod create(String name, int inits, int shorts, Map<String, String> annotations) {
        List<Container> initContainers = new ArrayList<>();
        for (int i = 0; i < inits; i++) {
            initContainers.add(new ContainerBuilder()
                    .withName(String.format("init-%02d", i))
                    .withCommand("/workload", "report")
                    .build());
        }
        List<Container> containers = new ArrayList<>();
        for (int i = 0; i < shorts; i++) {
            containers.add(new ContainerBuilder()
                    .withName(String.format("short-%02d", i))
                    .withCommand("/workload", "report")
                    .build());
        }
        containers.add(new ContainerBuilder()
                .withName("app")
                .withCommand("/workload", "1")
                .build());
        Pod pod = new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(namespace)
                .withAnnotations(annotations)
                .endMetadata()
                .withNewSpec()
                .withRestartPolicy("Never")
                .withResources(SamplePods.guaranteed("1", "64Mi"))
                .withInitContainers(initContainers)
                .withContainers(containers)
                .endSpec()
                .build();
        return plane.client()
                .pods()
                .inNamespace(namespace)
                .resource(WorkloadPods.ofImage(pod, io.podnuma.e2e.realnode.RealNodeAgent.workloadImage()))
                .create();
    }

    Pod awaitRunning(String name) throws InterruptedException {
        return node.awaitRunning(namespace, name);
    }

    /** Waits until the app container's latest report names the pod's CPUs (the agent pinned it, by either path). */
    List<WorkloadPods.Affinity> awaitAppOnPodCpus(Pod running) throws InterruptedException {
        long deadline = System.nanoTime() + RUNNING.toNanos();
        while (true) {
            List<WorkloadPods.Affinity> seen = WorkloadPods.logged(node, running, "app");
            if (!seen.isEmpty() && onPodCpus(seen.get(seen.size() - 1))) {
                return seen;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError(
                        "the app container of " + running.getMetadata().getName() + " never reported the pod's CPUs "
                                + expected + "; it reported " + seen);
            }
            TimeUnit.MILLISECONDS.sleep(100);
        }
    }

    /** The app container's reports, once it printed its first one. */
    List<WorkloadPods.Affinity> appReports(Pod running) throws InterruptedException {
        return WorkloadPods.awaitLogged(node, running, "app", RUNNING);
    }

    /** The first report of every container of {@code running} (the init containers have all exited). */
    List<Birth> births(Pod running) {
        List<Birth> births = new ArrayList<>();
        List<String> names = new ArrayList<>();
        running.getSpec().getInitContainers().forEach(c -> names.add(c.getName()));
        running.getSpec().getContainers().forEach(c -> names.add(c.getName()));
        for (String c : names) {
            List<WorkloadPods.Affinity> seen = WorkloadPods.logged(node, running, c);
            if (seen.isEmpty()) {
                throw new AssertionError(
                        "container " + running.getMetadata().getName() + "/" + c + " left no report in its log");
            }
            births.add(new Birth(running.getMetadata().getName(), c, seen.get(0)));
        }
        return births;
    }

    boolean onPodCpus(WorkloadPods.Affinity a) {
        return a.cpus().equals(expected);
    }

    /** Deletes the pod and waits until it is gone (its CPUs are back with the node). */
    void delete(Pod pod) throws InterruptedException {
        plane.client()
                .pods()
                .inNamespace(namespace)
                .withName(pod.getMetadata().getName())
                .withGracePeriod(1)
                .delete();
        awaitGone(pod.getMetadata().getName());
    }

    /** Deletes every pod of the namespace and waits until they are gone. */
    void deleteAll() throws InterruptedException {
        List<Pod> left = plane.client().pods().inNamespace(namespace).list().getItems();
        for (Pod pod : left) {
            delete(pod);
        }
    }

    private void awaitGone(String name) throws InterruptedException {
        long deadline = System.nanoTime() + RUNNING.toNanos();
        while (Optional.ofNullable(plane.client()
                        .pods()
                        .inNamespace(namespace)
                        .withName(name)
                        .get())
                .isPresent()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("pod " + name + " is still there");
            }
            TimeUnit.MILLISECONDS.sleep(100);
        }
    }
}
