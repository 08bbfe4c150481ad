package io.podnuma.agent.podresources;

import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.engine.memory.MemoryBlock;
import io.podnuma.agent.engine.state.AssignmentKind;
import io.podnuma.agent.engine.state.PodAssignment;
import io.podnuma.agent.engine.topology.NumaMask;
import io.podnuma.podresources.v1.AllocatableResourcesResponse;
import io.podnuma.podresources.v1.ContainerDevices;
import io.podnuma.podresources.v1.ContainerMemory;
import io.podnuma.podresources.v1.ContainerResources;
import io.podnuma.podresources.v1.ListPodResourcesResponse;
import io.podnuma.podresources.v1.NUMANode;
import io.podnuma.podresources.v1.PodResources;
import io.podnuma.podresources.v1.TopologyInfo;
import java.util.List;
import java.util.Optional;
import java.util.function.LongConsumer;

/**
 * Turns a {@link PodResourcesSnapshot} into PodResources v1 messages with the kubelet's semantics (spec §8):
 * container {@code cpu_ids} are exclusive CPUs only; container {@code memory} is the container's own pinned
 * blocks; pod-level {@code cpu_ids}/{@code memory} are the pod's bubble and pod blocks (pod-level placement).
 * A pod the engine holds nothing for is still listed, with empty fields. CPU ids are ascending.
 */
public final class PodResourcesAnswers {

    private PodResourcesAnswers() {}

    public static ListPodResourcesResponse list(PodResourcesSnapshot snapshot, DeviceAssignments devices) {
        ListPodResourcesResponse.Builder out = ListPodResourcesResponse.newBuilder();
        snapshot.pods().forEach(pod -> out.addPodResources(pod(snapshot, pod, devices)));
        return out.build();
    }

    /** The pod with this namespace and name, if it is on the node. */
    public static Optional<ListedPod> find(PodResourcesSnapshot snapshot, String namespace, String name) {
        return snapshot.pods().stream()
                .filter(p ->
                        p.ref().namespace().equals(namespace) && p.ref().name().equals(name))
                .findFirst();
    }

    public static PodResources pod(PodResourcesSnapshot snapshot, ListedPod listed, DeviceAssignments devices) {
        Optional<PodAssignment> assignment = snapshot.state().pod(listed.ref().uid());
        PodResources.Builder out = PodResources.newBuilder()
                .setName(listed.ref().name())
                .setNamespace(listed.ref().namespace());
        assignment.ifPresent(a -> {
            addCpus(a.bubble(), out::addCpuIds);
            a.podMemory().forEach(b -> out.addMemory(memory(b)));
        });
        for (String name : listed.containers()) {
            ContainerResources.Builder c = ContainerResources.newBuilder().setName(name);
            assignment.flatMap(a -> a.container(name)).ifPresent(ca -> {
                if (ca.kind() == AssignmentKind.EXCLUSIVE) {
                    addCpus(ca.cpus(), c::addCpuIds);
                }
                ca.memory().forEach(b -> c.addMemory(memory(b)));
            });
            DeviceAssignments.Assigned extra = devices.of(
                    new ContainerKey(listed.ref().namespace(), listed.ref().name(), name));
            c.addAllDevices(extra.devices()).addAllDynamicResources(extra.dynamicResources());
            out.addContainers(c);
        }
        return out.build();
    }

    public static AllocatableResourcesResponse allocatable(
            PodResourcesSnapshot snapshot, List<ContainerDevices> devices) {
        AllocatableResourcesResponse.Builder out = AllocatableResourcesResponse.newBuilder();
        addCpus(snapshot.allocatable().cpus(), out::addCpuIds);
        for (AllocatableMemory m : snapshot.allocatable().memory()) {
            out.addMemory(ContainerMemory.newBuilder()
                    .setMemoryType(m.resource().resourceName())
                    .setSize(m.bytes())
                    .setTopology(topology(NumaMask.of(m.numaNode()))));
        }
        return out.addAllDevices(devices).build();
    }

    private static void addCpus(CpuSet cpus, LongConsumer sink) {
        cpus.forEach(id -> sink.accept(id));
    }

    private static ContainerMemory memory(MemoryBlock block) {
        return ContainerMemory.newBuilder()
                .setMemoryType(block.resource().resourceName())
                .setSize(block.size())
                .setTopology(topology(block.nodes()))
                .build();
    }

    private static TopologyInfo topology(NumaMask nodes) {
        TopologyInfo.Builder t = TopologyInfo.newBuilder();
        nodes.nodes().forEach(n -> t.addNodes(NUMANode.newBuilder().setID(n)));
        return t.build();
    }
}
