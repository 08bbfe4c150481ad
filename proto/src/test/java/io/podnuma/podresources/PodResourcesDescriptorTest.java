package io.podnuma.podresources;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.Descriptors.MethodDescriptor;
import com.google.protobuf.Descriptors.ServiceDescriptor;
import io.grpc.MethodDescriptor.MethodType;
import io.podnuma.podresources.v1.PodResourcesApi;
import io.podnuma.podresources.v1.PodResourcesListerGrpc;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Pins the API surface to the table in the resource-managers spec, §8 (and upstream's
 * {@code k8s.io/kubelet/pkg/apis/podresources/v1/api.proto}): a renumbered, retyped, added or removed
 * field fails here before it can break a kubelet client.
 */
class PodResourcesDescriptorTest {

    /** Message name to its fields as "number name type", where type has "repeated " for lists. */
    private static final Map<String, Set<String>> EXPECTED_FIELDS = Map.ofEntries(
            Map.entry("AllocatableResourcesRequest", fields()),
            Map.entry(
                    "AllocatableResourcesResponse",
                    fields(
                            "1 devices repeated ContainerDevices",
                            "2 cpu_ids repeated int64",
                            "3 memory repeated ContainerMemory")),
            Map.entry("ListPodResourcesRequest", fields()),
            Map.entry("ListPodResourcesResponse", fields("1 pod_resources repeated PodResources")),
            Map.entry(
                    "PodResources",
                    fields(
                            "1 name string",
                            "2 namespace string",
                            "3 containers repeated ContainerResources",
                            "4 cpu_ids repeated int64",
                            "5 memory repeated ContainerMemory")),
            Map.entry(
                    "ContainerResources",
                    fields(
                            "1 name string",
                            "2 devices repeated ContainerDevices",
                            "3 cpu_ids repeated int64",
                            "4 memory repeated ContainerMemory",
                            "5 dynamic_resources repeated DynamicResource")),
            Map.entry("ContainerMemory", fields("1 memory_type string", "2 size uint64", "3 topology TopologyInfo")),
            Map.entry(
                    "ContainerDevices",
                    fields("1 resource_name string", "2 device_ids repeated string", "3 topology TopologyInfo")),
            Map.entry("TopologyInfo", fields("1 nodes repeated NUMANode")),
            Map.entry("NUMANode", fields("1 ID int64")),
            Map.entry(
                    "DynamicResource",
                    fields(
                            "2 claim_name string",
                            "3 claim_namespace string",
                            "4 claim_resources repeated ClaimResource")),
            Map.entry(
                    "ClaimResource",
                    fields(
                            "1 cdi_devices repeated CDIDevice",
                            "2 driver_name string",
                            "3 pool_name string",
                            "4 device_name string",
                            "5 share_id string")),
            Map.entry("CDIDevice", fields("1 name string")),
            Map.entry("GetPodResourcesRequest", fields("1 pod_name string", "2 pod_namespace string")),
            Map.entry("GetPodResourcesResponse", fields("1 pod_resources PodResources")));

    private static final FileDescriptor FILE = PodResourcesApi.getDescriptor();

    private static Set<String> fields(String... fields) {
        return new TreeSet<>(Arrays.asList(fields));
    }

    private static String describe(FieldDescriptor field) {
        String type = field.getType() == FieldDescriptor.Type.MESSAGE
                ? field.getMessageType().getName()
                : field.getType().name().toLowerCase(java.util.Locale.ROOT);
        return field.getNumber() + " " + field.getName() + " " + (field.isRepeated() ? "repeated " : "") + type;
    }

    @Test
    void fileIsProto3InPackageV1() {
        assertThat(FILE.getPackage()).isEqualTo("v1");
        assertThat(FILE.toProto().getSyntax()).isEqualTo("proto3");
    }

    @Test
    void everyMessageHasExactlyTheFieldsOfTheSpecTable() {
        Map<String, Set<String>> actual = new TreeMap<>();
        for (Descriptor message : FILE.getMessageTypes()) {
            actual.put(
                    message.getName(),
                    message.getFields().stream()
                            .map(PodResourcesDescriptorTest::describe)
                            .collect(Collectors.toCollection(TreeSet::new)));
        }
        assertThat(actual).isEqualTo(new TreeMap<>(EXPECTED_FIELDS));
    }

    @Test
    void repeatedInt64FieldsArePacked() {
        // proto3 packs repeated scalars; the kubelet's Go encoder does too, so both emit identical bytes.
        for (String message : List.of("PodResources", "ContainerResources", "AllocatableResourcesResponse")) {
            FieldDescriptor cpuIds = FILE.findMessageTypeByName(message).findFieldByName("cpu_ids");
            assertThat(cpuIds.isPacked()).as(message + ".cpu_ids packed").isTrue();
        }
    }

    @Test
    void dynamicResourceKeepsFieldOneReserved() {
        Descriptor dynamicResource = FILE.findMessageTypeByName("DynamicResource");
        assertThat(dynamicResource.isReservedNumber(1)).isTrue();
        assertThat(dynamicResource.isReservedName("class_name")).isTrue();
        assertThat(dynamicResource.findFieldByNumber(1)).isNull();
    }

    @Test
    void shareIdTracksPresenceButOtherStringsDoNot() {
        Descriptor claimResource = FILE.findMessageTypeByName("ClaimResource");
        assertThat(claimResource.findFieldByName("share_id").hasPresence()).isTrue();
        assertThat(claimResource.findFieldByName("device_name").hasPresence()).isFalse();
    }

    @Test
    void serviceHasTheKubeletMethodsUnderTheirWireNames() {
        ServiceDescriptor service = FILE.findServiceByName("PodResourcesLister");
        assertThat(service.getFullName()).isEqualTo("v1.PodResourcesLister");
        Map<String, String> signatures = service.getMethods().stream()
                .collect(Collectors.toMap(
                        MethodDescriptor::getName,
                        m -> m.getInputType().getName() + " -> "
                                + m.getOutputType().getName()
                                + (m.isClientStreaming() || m.isServerStreaming() ? " streaming" : "")));
        assertThat(signatures)
                .containsExactlyInAnyOrderEntriesOf(Map.of(
                        "List", "ListPodResourcesRequest -> ListPodResourcesResponse",
                        "GetAllocatableResources", "AllocatableResourcesRequest -> AllocatableResourcesResponse",
                        "Get", "GetPodResourcesRequest -> GetPodResourcesResponse"));
    }

    @Test
    void generatedStubsUseTheKubeletMethodPaths() {
        assertThat(PodResourcesListerGrpc.SERVICE_NAME).isEqualTo("v1.PodResourcesLister");
        List<io.grpc.MethodDescriptor<?, ?>> methods = List.of(
                PodResourcesListerGrpc.getListMethod(),
                PodResourcesListerGrpc.getGetAllocatableResourcesMethod(),
                PodResourcesListerGrpc.getGetMethod());
        assertThat(methods)
                .extracting(io.grpc.MethodDescriptor::getFullMethodName)
                .containsExactly(
                        "v1.PodResourcesLister/List",
                        "v1.PodResourcesLister/GetAllocatableResources",
                        "v1.PodResourcesLister/Get");
        assertThat(methods).allSatisfy(m -> assertThat(m.getType()).isEqualTo(MethodType.UNARY));
        assertThat(PodResourcesListerGrpc.getServiceDescriptor().getMethods()).hasSize(3);
    }
}
