package io.podnuma.oracle;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import io.podnuma.controlplane.GuestTopology;
import io.podnuma.controlplane.RealNode;
import io.podnuma.testkit.pods.SamplePods;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Pod sets for the live oracle, generated from a seed: pods admitted one after another on an empty node, of the shapes
 * the pod-level managers decide differently: a pod budget whose containers share it, a budget with an exclusive app
 * container and sidecars on the rest, container-level Guaranteed pods, Burstable pods on the shared pool, and budgets
 * larger than one NUMA node. Every container runs the pause image.
 *
 * <p>A set never asks more CPU or memory than the node has allocatable in total, counting refused pods too, so the
 * kubelet's own fit check (OutOfcpu, OutOfmemory: the scheduler's job, not a resource manager's) never decides a pod;
 * what refuses one is the topology manager.
 */
final class OraclePodSets {

    /** One set: its index, the seed that made it, and its pods in admission order. */
    record PodSet(int index, long seed, List<Pod> pods) {}

    /** How much memory a set asks at most: half of what two 1 GiB nodes leave after the reservation. */
    private static final int SET_MEMORY_MIB = 896;

    private final GuestTopology topology;
    private final String node;

    OraclePodSets(GuestTopology topology, String node) {
        this.topology = topology;
        this.node = node;
    }

    /** Set {@code index}: the same pods for the same topology and index, on every run. */
    PodSet generate(int index) {
        long seed = 0x5EED_0000L + 7919L * index + topology.nodes();
        Random random = new Random(seed);
        // CPU 0 is reserved; the rest is allocatable.
        int freeMilli = (topology.cpus() - 1) * 1000;
        int freeMiB = SET_MEMORY_MIB;
        int count = 3 + random.nextInt(3);
        List<Pod> pods = new ArrayList<>();
        for (int i = 0; i < count && freeMilli >= 1000; i++) {
            String name = "s" + index + "-p" + i;
            int roll = random.nextInt(100);
            Pod pod;
            int cpuMilli;
            int memMiB;
            if (roll < 45) {
                int cpus = 1 + random.nextInt(Math.min(topology.cpusPerNode(), freeMilli / 1000));
                memMiB = 64 * (1 + random.nextInt(3));
                pod = budget(name + "-budget", cpus, memMiB, random);
                cpuMilli = cpus * 1000;
            } else if (roll < 70) {
                int first = 1 + random.nextInt(Math.min(2, freeMilli / 1000));
                int second = freeMilli / 1000 - first >= 1 && random.nextBoolean() ? 1 : 0;
                pod = containerLevel(name + "-guaranteed", first, second);
                cpuMilli = (first + second) * 1000;
                memMiB = 64 * (second > 0 ? 2 : 1);
            } else if (roll < 88) {
                pod = burstable(name + "-burstable");
                cpuMilli = 100;
                memMiB = 32;
            } else {
                int cpus = topology.cpusPerNode() + 1;
                if (cpus * 1000 > freeMilli) {
                    continue;
                }
                pod = budget(name + "-toobig", cpus, 128, random);
                cpuMilli = cpus * 1000;
                memMiB = 128;
            }
            if (cpuMilli > freeMilli || memMiB > freeMiB) {
                continue;
            }
            freeMilli -= cpuMilli;
            freeMiB -= memMiB;
            pods.add(pod);
        }
        return new PodSet(index, seed, pods);
    }

    /**
     * A pod budget of {@code cpus} and {@code memMiB}: an app container (half the time with whole CPUs of its own,
     * at most the budget) and, at random, a native sidecar and a second app container, both without resources.
     */
    private Pod budget(String name, int cpus, int memMiB, Random random) {
        List<Container> init = new ArrayList<>();
        List<Container> apps = new ArrayList<>();
        Container app = container("app");
        if (cpus >= 2 && random.nextBoolean()) {
            int own = 1 + random.nextInt(cpus);
            app.setResources(SamplePods.guaranteed(Integer.toString(own), "32Mi"));
        }
        apps.add(app);
        if (random.nextBoolean()) {
            Container proxy = container("proxy");
            proxy.setRestartPolicy("Always");
            init.add(proxy);
        }
        if (random.nextInt(3) == 0) {
            apps.add(container("log"));
        }
        return pod(name, SamplePods.guaranteed(Integer.toString(cpus), memMiB + "Mi"), init, apps);
    }

    /** A pod without a budget whose containers are each Guaranteed with whole CPUs ({@code second} 0: one). */
    private Pod containerLevel(String name, int first, int second) {
        List<Container> apps = new ArrayList<>();
        Container a = container("app");
        a.setResources(SamplePods.guaranteed(Integer.toString(first), "64Mi"));
        apps.add(a);
        if (second > 0) {
            Container b = container("helper");
            b.setResources(SamplePods.guaranteed(Integer.toString(second), "64Mi"));
            apps.add(b);
        }
        return pod(name, null, List.of(), apps);
    }

    private Pod burstable(String name) {
        Container web = container("web");
        web.setResources(new ResourceRequirementsBuilder()
                .addToRequests(Map.of("cpu", new Quantity("100m"), "memory", new Quantity("32Mi")))
                .build());
        return pod(name, null, List.of(), List.of(web));
    }

    private static Container container(String name) {
        return new ContainerBuilder()
                .withName(name)
                .withImage(RealNode.PAUSE_IMAGE)
                .withImagePullPolicy("Never")
                .build();
    }

    private Pod pod(String name, ResourceRequirements budget, List<Container> init, List<Container> apps) {
        return new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withNewSpec()
                .withNodeName(node)
                .withResources(budget)
                .withInitContainers(init)
                .withContainers(apps)
                .withTerminationGracePeriodSeconds(0L)
                .withHostNetwork(true)
                // No token volume to wait for, no cluster DNS to miss: the pause image needs neither.
                .withAutomountServiceAccountToken(false)
                .withDnsPolicy("Default")
                .endSpec()
                .build();
    }
}
