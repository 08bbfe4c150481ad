package io.podnuma.agent.engine.node.validation;

import io.podnuma.agent.engine.pod.ContainerType;
import io.podnuma.agent.engine.pod.PodQos;
import io.podnuma.agent.engine.state.AssignmentKind;
import io.podnuma.agent.engine.state.ContainerAssignment;
import io.podnuma.agent.engine.state.PodAssignment;
import io.podnuma.agent.engine.state.PodPlacement;

/**
 * The shape of one pod's assignment, whatever policy admitted it: containers in spec order, ephemeral containers on
 * the node pool, kinds that fit the placement, pinning only for Guaranteed pods.
 */
final class PodShapeRules {

    private PodShapeRules() {}

    /** Init containers and sidecars, then app containers, then ephemeral containers: the walk order depends on it. */
    static void containersInSpecOrder(PodAssignment pod) {
        int rank = 0;
        for (ContainerAssignment c : pod.containers()) {
            int mine = rank(c.type());
            if (mine < rank) {
                throw Wording.wrong(
                        pod,
                        c,
                        "type",
                        c.type().wireName(),
                        "init and sidecar containers before app containers, ephemeral containers last");
            }
            rank = mine;
        }
    }

    private static int rank(ContainerType type) {
        return switch (type) {
            case INIT, SIDECAR -> 0;
            case APP -> 1;
            case EPHEMERAL -> 2;
        };
    }

    static void ephemeralOnNodePool(PodAssignment pod) {
        for (ContainerAssignment c : pod.containers()) {
            if (c.type() != ContainerType.EPHEMERAL) {
                continue;
            }
            String why = "for an ephemeral container, which always runs on the node shared pool unpinned";
            if (c.kind() != AssignmentKind.NODE_SHARED) {
                throw Wording.wrong(pod, c, "kind", c.kind().wireName(), "node-shared " + why);
            }
            if (!c.memory().isEmpty()) {
                throw Wording.wrong(pod, c, "memory", Wording.describe(c.memory()), "none " + why);
            }
            if (!c.memoryNodes().isEmpty()) {
                throw Wording.wrong(pod, c, "memoryNodes", c.memoryNodes(), "{} " + why);
            }
        }
    }

    static void kindsFitPlacement(PodAssignment pod) {
        if (pod.placement() != PodPlacement.POD_LEVEL) {
            String why = "for placement " + pod.placement().wireName() + ", where only pod-level placement has a ";
            if (pod.hasBubble()) {
                throw Wording.wrong(pod, null, "bubble", pod.bubble(), "\"\" " + why + "bubble");
            }
            if (!pod.podMemory().isEmpty()) {
                throw Wording.wrong(
                        pod, null, "memory", Wording.describe(pod.podMemory()), "none " + why + "pod memory budget");
            }
            for (ContainerAssignment c : pod.containers()) {
                if (c.kind() == AssignmentKind.POD_SHARED) {
                    throw Wording.wrong(
                            pod, c, "kind", c.kind().wireName(), "exclusive or node-shared " + why + "pod pool");
                }
            }
            if (pod.placement() == PodPlacement.CONTAINER && !pod.numaAffinity().isEmpty()) {
                throw Wording.wrong(
                        pod,
                        null,
                        "numaAffinity",
                        pod.numaAffinity(),
                        "{} for placement container, where each container gets its own hint");
            }
            return;
        }
        for (ContainerAssignment c : pod.containers()) {
            if (c.type() == ContainerType.EPHEMERAL) {
                continue;
            }
            if (!pod.hasBubble() && c.kind() != AssignmentKind.NODE_SHARED) {
                throw Wording.wrong(
                        pod,
                        c,
                        "kind",
                        c.kind().wireName(),
                        "node-shared in a pod with placement pod-level and no bubble (CPU budget 0)");
            }
            if (pod.hasBubble() && c.kind() == AssignmentKind.NODE_SHARED) {
                throw Wording.wrong(
                        pod,
                        c,
                        "kind",
                        c.kind().wireName(),
                        "exclusive or pod-shared in a pod with placement pod-level and bubble \"" + pod.bubble()
                                + "\"");
            }
        }
    }

    static void pinnedOnlyWhenGuaranteed(PodAssignment pod) {
        if (pod.qos() == PodQos.GUARANTEED) {
            return;
        }
        String why = ", because qos is " + pod.qos().wireName() + " and only Guaranteed pods are pinned";
        if (pod.hasBubble()) {
            throw Wording.wrong(pod, null, "bubble", pod.bubble(), "\"\"" + why);
        }
        if (!pod.podMemory().isEmpty()) {
            throw Wording.wrong(pod, null, "memory", Wording.describe(pod.podMemory()), "none" + why);
        }
        for (ContainerAssignment c : pod.containers()) {
            if (c.kind() == AssignmentKind.EXCLUSIVE) {
                throw Wording.wrong(pod, c, "kind", c.kind().wireName(), "node-shared" + why);
            }
            if (!c.memory().isEmpty()) {
                throw Wording.wrong(pod, c, "memory", Wording.describe(c.memory()), "none" + why);
            }
        }
    }
}
