package io.podnuma.testkit.nri;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Sample {@code PodSandbox} and {@code Container} messages shaped like those containerd sends at CreateContainer
 * (ids, Kubernetes names and uid, the kubelet's cgroup parent), for tests that need a pod and a container and do not
 * care about the rest.
 */
public final class NriMessages {

    private NriMessages() {}

    /** A pod sandbox {@code id} for pod {@code namespace/name} with {@code uid}, in the Guaranteed cgroup parent. */
    public static NriJson pod(String id, String namespace, String name, String uid) {
        ObjectNode pod = NriJson.MAPPER
                .createObjectNode()
                .put("id", id)
                .put("name", name)
                .put("uid", uid)
                .put("namespace", namespace);
        pod.putObject("labels").put("io.kubernetes.pod.name", name).put("io.kubernetes.pod.namespace", namespace);
        pod.putObject("linux").put("cgroupParent", "/kubepods/pod" + uid);
        return NriJson.of(pod);
    }

    /** A container {@code id} named {@code name} (its Kubernetes name) in pod sandbox {@code podSandboxId}. */
    public static NriJson container(String id, String podSandboxId, String name) {
        ObjectNode ctr = NriJson.MAPPER
                .createObjectNode()
                .put("id", id)
                .put("podSandboxId", podSandboxId)
                .put("name", name);
        ctr.putObject("labels").put("io.kubernetes.container.name", name);
        ObjectNode cpu = ctr.putObject("linux").putObject("resources").putObject("cpu");
        cpu.putObject("shares").put("value", "2048");
        cpu.putObject("quota").put("value", "200000");
        cpu.putObject("period").put("value", "100000");
        return NriJson.of(ctr);
    }
}
