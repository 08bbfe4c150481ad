package io.podnuma.podresources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.Message;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.podnuma.podresources.v1.AllocatableResourcesRequest;
import io.podnuma.podresources.v1.AllocatableResourcesResponse;
import io.podnuma.podresources.v1.CDIDevice;
import io.podnuma.podresources.v1.ClaimResource;
import io.podnuma.podresources.v1.ContainerDevices;
import io.podnuma.podresources.v1.ContainerMemory;
import io.podnuma.podresources.v1.ContainerResources;
import io.podnuma.podresources.v1.DynamicResource;
import io.podnuma.podresources.v1.GetPodResourcesRequest;
import io.podnuma.podresources.v1.GetPodResourcesResponse;
import io.podnuma.podresources.v1.ListPodResourcesResponse;
import io.podnuma.podresources.v1.NUMANode;
import io.podnuma.podresources.v1.PodResources;
import io.podnuma.podresources.v1.PodResourcesListerGrpc.PodResourcesListerBlockingStub;
import io.podnuma.podresources.v1.TopologyInfo;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The fixture messages of the cross-language check, built here independently of the Go side
 * ({@code src/test/go/wirecheck/fixtures.go}); the two must describe the same values.
 */
final class WireFixtures {

    static final long GIB = 1L << 30;

    /** {@code 2^64 - 1}, the largest uint64, which Java holds as the long {@code -1}. */
    static final long MAX_UINT64 = -1L;

    private WireFixtures() {}

    /** A server of these fixtures answers Get and GetAllocatableResources with them, and NOT_FOUND for a pod it has not. */
    static void assertGetAndAllocatable(PodResourcesListerBlockingStub stub) {
        assertThat(stub.get(getRequest())).isEqualTo(getResponse());
        assertThat(stub.getAllocatableResources(AllocatableResourcesRequest.getDefaultInstance()))
                .isEqualTo(allocatableResponse());
        assertThatThrownBy(() -> stub.get(GetPodResourcesRequest.newBuilder()
                        .setPodName("absent")
                        .setPodNamespace("prod")
                        .build()))
                .isInstanceOfSatisfying(
                        StatusRuntimeException.class,
                        e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.NOT_FOUND));
    }

    static TopologyInfo numa(long... ids) {
        TopologyInfo.Builder topology = TopologyInfo.newBuilder();
        Arrays.stream(ids).forEach(id -> topology.addNodes(NUMANode.newBuilder().setID(id)));
        return topology.build();
    }

    static ContainerMemory memory(String type, long size, TopologyInfo topology) {
        return ContainerMemory.newBuilder()
                .setMemoryType(type)
                .setSize(size)
                .setTopology(topology)
                .build();
    }

    /** Pod scope: an 8-CPU bubble, an exclusive sidecar, a pinned main container and a shared logger. */
    static PodResources numaDbPod() {
        return PodResources.newBuilder()
                .setName("numa-db")
                .setNamespace("prod")
                .addAllCpuIds(List.of(2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L))
                .addMemory(memory("memory", 8 * GIB, numa(0)))
                .addMemory(memory("hugepages-2Mi", GIB, numa(0)))
                .addContainers(ContainerResources.newBuilder()
                        .setName("sidecar-a")
                        .addCpuIds(2)
                        .addMemory(memory("memory", GIB, numa(0))))
                .addContainers(ContainerResources.newBuilder()
                        .setName("main")
                        .addAllCpuIds(List.of(3L, 4L, 5L, 6L, 7L, 8L))
                        .addMemory(memory("memory", 6 * GIB, numa(0)))
                        .addDevices(ContainerDevices.newBuilder()
                                .setResourceName("example.com/nic")
                                .addDeviceIds("vf-0")
                                .addDeviceIds("vf-1")
                                .setTopology(numa(0)))
                        .addDynamicResources(DynamicResource.newBuilder()
                                .setClaimName("gpu-claim")
                                .setClaimNamespace("prod")
                                .addClaimResources(ClaimResource.newBuilder()
                                        .addCdiDevices(CDIDevice.newBuilder().setName("example.com/gpu=gpu0"))
                                        .addCdiDevices(CDIDevice.newBuilder().setName("example.com/gpu=gpu0-mig"))
                                        .setDriverName("gpu.example.com")
                                        .setPoolName("node-a")
                                        .setDeviceName("gpu-0")
                                        .setShareId("4f1c-share"))
                                .addClaimResources(ClaimResource.newBuilder()
                                        .setDriverName("gpu.example.com")
                                        .setPoolName("node-a")
                                        .setDeviceName("gpu-1"))))
                .addContainers(ContainerResources.newBuilder().setName("logger"))
                .build();
    }

    /**
     * Values careless encoders get wrong: a uint64 above 2^63, negative and large int64 ids, an
     * explicitly present empty share id, non-ASCII text.
     */
    static PodResources edgePod() {
        return PodResources.newBuilder()
                .setName("edge-ü")
                .setNamespace("wirecheck")
                .addAllCpuIds(List.of(0L, 1L << 40, -1L))
                .addMemory(memory("memory", MAX_UINT64, numa(1L << 33, -7)))
                .addMemory(ContainerMemory.newBuilder().setMemoryType("hugepages-1Gi"))
                .addContainers(ContainerResources.newBuilder()
                        .setName("c")
                        .addDynamicResources(DynamicResource.newBuilder()
                                .setClaimName("claim-without-namespace")
                                .addClaimResources(ClaimResource.newBuilder()
                                        .setDeviceName("dev")
                                        .setShareId(""))))
                .build();
    }

    /** No pod-level resources; one container with nothing assigned. */
    static PodResources plainPod() {
        return PodResources.newBuilder()
                .setName("web")
                .setNamespace("default")
                .addContainers(ContainerResources.newBuilder().setName("nginx"))
                .build();
    }

    static ListPodResourcesResponse listResponse() {
        return ListPodResourcesResponse.newBuilder()
                .addPodResources(numaDbPod())
                .addPodResources(plainPod())
                .addPodResources(edgePod())
                .build();
    }

    static GetPodResourcesRequest getRequest() {
        return GetPodResourcesRequest.newBuilder()
                .setPodName("numa-db")
                .setPodNamespace("prod")
                .build();
    }

    static GetPodResourcesResponse getResponse() {
        return GetPodResourcesResponse.newBuilder().setPodResources(numaDbPod()).build();
    }

    static AllocatableResourcesResponse allocatableResponse() {
        return AllocatableResourcesResponse.newBuilder()
                .addDevices(ContainerDevices.newBuilder()
                        .setResourceName("example.com/nic")
                        .addAllDeviceIds(List.of("vf-0", "vf-1", "vf-2", "vf-3"))
                        .setTopology(numa(0)))
                .addDevices(ContainerDevices.newBuilder()
                        .setResourceName("example.com/nic")
                        .addAllDeviceIds(List.of("vf-4", "vf-5"))
                        .setTopology(numa(1)))
                .addAllCpuIds(List.of(1L, 2L, 3L, 4L, 5L, 6L, 7L, 9L, 10L, 11L, 12L, 13L, 14L, 15L))
                .addMemory(memory("memory", 60 * GIB, numa(0)))
                .addMemory(memory("memory", 62 * GIB, numa(1)))
                .addMemory(memory("hugepages-1Gi", 4 * GIB, numa(0, 1)))
                .build();
    }

    /** Fixtures by the names the Go program uses for files and report lines. */
    static Map<String, Message> byName() {
        return Map.of(
                "list-response", listResponse(),
                "get-request", getRequest(),
                "get-response", getResponse(),
                "allocatable-response", allocatableResponse());
    }
}
