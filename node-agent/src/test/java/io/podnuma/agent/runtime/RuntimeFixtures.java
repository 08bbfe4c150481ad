package io.podnuma.agent.runtime;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.machine.CpuTopology;
import io.podnuma.agent.engine.pod.PodQos;
import io.podnuma.testkit.pods.SamplePods;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;

/**
 * The machine and the pods of the in-memory runtime tests: a 2-socket machine with SMT from the sysfs fixtures, pods
 * of three kinds, and the container statuses (with containerd IDs derived from the pod UID) a kubelet would report.
 */
final class RuntimeFixtures {

    static final Path SYSFS = Path.of("src/test/resources/sysfs/intel-2s-ht");

    private RuntimeFixtures() {}

    /**
     * Kind 0: a Guaranteed pod with a {@code cpus} pod budget, a native sidecar and a 1-CPU app container; kind 1:
     * classic Guaranteed with {@code cpus} and 1 whole CPUs; kind 2: Burstable.
     */
    static Pod podOfKind(int kind, String uidSeed, String name, String cpus) {
        PodBuilder b = new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace("churn")
                .withUid(UUID.nameUUIDFromBytes(uidSeed.getBytes(StandardCharsets.UTF_8))
                        .toString())
                .withCreationTimestamp("2026-11-29T00:00:00Z")
                .endMetadata();
        var spec = b.withNewSpec().withNodeName("churn");
        switch (kind) {
            case 0 -> {
                spec.withResources(SamplePods.guaranteed(cpus, "1Gi"))
                        .addNewInitContainer()
                        .withName("proxy")
                        .withRestartPolicy("Always")
                        .endInitContainer()
                        .addNewContainer()
                        .withName("app")
                        .withResources(SamplePods.guaranteed("1", "256Mi"))
                        .endContainer();
            }
            case 1 -> {
                spec.addNewContainer()
                        .withName("app")
                        .withResources(SamplePods.guaranteed(cpus, "512Mi"))
                        .endContainer()
                        .addNewContainer()
                        .withName("helper")
                        .withResources(SamplePods.guaranteed("1", "64Mi"))
                        .endContainer();
            }
            default ->
                spec.addNewContainer()
                        .withName("web")
                        .withNewResources()
                        .addToRequests("cpu", new Quantity("250m"))
                        .endResources()
                        .endContainer();
        }
        return spec.endSpec().build();
    }

    static Pod withStatus(Pod p) {
        String uid = p.getMetadata().getUid();
        List<ContainerStatus> init = new ArrayList<>();
        for (var c : p.getSpec().getInitContainers()) {
            init.add(status(uid, c.getName()));
        }
        List<ContainerStatus> app = new ArrayList<>();
        for (var c : p.getSpec().getContainers()) {
            app.add(status(uid, c.getName()));
        }
        boolean guaranteed = p.getSpec().getContainers().stream()
                        .allMatch(c -> c.getResources() != null
                                && c.getResources().getLimits() != null
                                && !c.getResources().getLimits().isEmpty())
                || p.getSpec().getResources() != null;
        return new PodBuilder(p)
                .withNewStatus()
                .withPhase("Running")
                .withQosClass(guaranteed ? "Guaranteed" : "Burstable")
                .withInitContainerStatuses(init)
                .withContainerStatuses(app)
                .endStatus()
                .build();
    }

    private static ContainerStatus status(String uid, String name) {
        return new ContainerStatusBuilder()
                .withName(name)
                .withContainerID("containerd://" + sha256(uid + "/" + name))
                .build();
    }

    static List<ContainerStatus> allStatuses(Pod p) {
        List<ContainerStatus> all = new ArrayList<>(p.getStatus().getInitContainerStatuses());
        all.addAll(p.getStatus().getContainerStatuses());
        return all;
    }

    static PodQos qos(Pod p) {
        return "Guaranteed".equals(p.getStatus().getQosClass()) ? PodQos.GUARANTEED : PodQos.BURSTABLE;
    }

    static String sha256(String s) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static CpuSet allMems(CpuTopology topo) {
        return CpuSet.of(topo.numaNodes().stream().map(n -> n.id()).toList());
    }
}
