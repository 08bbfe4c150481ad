package io.podnuma.testkit.nri;

import io.podnuma.nri.v1alpha1.Container;
import io.podnuma.nri.v1alpha1.LinuxCPU;
import io.podnuma.nri.v1alpha1.LinuxContainer;
import io.podnuma.nri.v1alpha1.LinuxPodSandbox;
import io.podnuma.nri.v1alpha1.LinuxResources;
import io.podnuma.nri.v1alpha1.OptionalInt64;
import io.podnuma.nri.v1alpha1.OptionalUInt64;
import io.podnuma.nri.v1alpha1.PodSandbox;
import java.util.List;

/**
 * Sample {@code PodSandbox} and {@code Container} messages shaped like those containerd sends at CreateContainer
 * (ids, Kubernetes names and uid, the kubelet's cgroup parent), for tests that need a pod and a container and do not
 * care about the rest.
 */
public final class NriMessages {

    private NriMessages() {}

    /** A pod sandbox {@code id} for pod {@code namespace/name} with {@code uid}, in the Guaranteed cgroup parent. */
    public static PodSandbox pod(String id, String namespace, String name, String uid) {
        return PodSandbox.newBuilder()
                .setId(id)
                .setName(name)
                .setUid(uid)
                .setNamespace(namespace)
                .putLabels("io.kubernetes.pod.name", name)
                .putLabels("io.kubernetes.pod.namespace", namespace)
                .setLinux(LinuxPodSandbox.newBuilder().setCgroupParent("/kubepods/pod" + uid))
                .build();
    }

    /** A container {@code id} named {@code name} (its Kubernetes name) in pod sandbox {@code podSandboxId}. */
    public static Container container(String id, String podSandboxId, String name) {
        return Container.newBuilder()
                .setId(id)
                .setPodSandboxId(podSandboxId)
                .setName(name)
                .putLabels("io.kubernetes.container.name", name)
                .setLinux(LinuxContainer.newBuilder()
                        .setResources(LinuxResources.newBuilder()
                                .setCpu(LinuxCPU.newBuilder()
                                        .setShares(OptionalUInt64.newBuilder().setValue(2048))
                                        .setQuota(OptionalInt64.newBuilder().setValue(200_000))
                                        .setPeriod(OptionalUInt64.newBuilder().setValue(100_000)))))
                .build();
    }

    /**
     * A container about the size containerd sends (a 64-character id, the CRI annotations, service env, the args of
     * a real command line): about 1.2 KB of protobuf, so some 3 400 of them no longer fit one 4 MiB Synchronize
     * message. Copies made by {@link NriRuntimeHarness#addContainers} get {@code -<i>} appended to the id.
     */
    public static Container containerdSized(String idPrefix, String podSandboxId, String name) {
        String id = idPrefix + "-" + "0123456789abcdef".repeat(4).substring(idPrefix.length() + 1);
        Container.Builder c = container(id, podSandboxId, name).toBuilder();
        for (String k : List.of("container.name", "pod.name", "pod.namespace", "pod.uid", "sandbox.id", "image")) {
            c.putAnnotations("io.kubernetes.cri.%s".formatted(k), "value-of-" + k + "-0123456789abcdef");
        }
        c.putAnnotations("io.kubernetes.cri.container-type", "container");
        for (int i = 0; i < 8; i++) {
            c.addEnv("SERVICE_%d_PORT=tcp://10.96.0.%d:443".formatted(i, i));
        }
        // In place of the mounts containerd sends (the API subset has none): the same bytes as arguments.
        for (String dst : List.of("/etc/hosts", "/dev/termination-log", "/etc/resolv.conf", "/var/run/secrets")) {
            c.addArgs("--bind=/var/lib/kubelet/pods/" + podSandboxId + "/volumes" + dst + ":" + dst + ":rbind,rw");
        }
        return c.build();
    }
}
