package io.podnuma.nri;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor.Type;
import com.google.protobuf.Descriptors.ServiceDescriptor;
import io.podnuma.nri.v1alpha1.NriApi;
import io.podnuma.ttrpc.TtrpcEnvelope;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Pins the field numbers and types NRI v0.12.3 uses where a mistake would silently lose the pinning (the
 * adjustment path, the event mask, split sync) or break the envelope: a renumbered field still compiles and
 * round-trips in Java, but the runtime would not see it.
 */
class NriApiDescriptorTest {

    static Stream<Arguments> pinnedFields() {
        return Stream.of(
                // CreateContainerResponse.adjust → ContainerAdjustment.linux → .resources → .cpu → cpus/mems
                field(NriApi.getDescriptor(), "CreateContainerResponse", "adjust", 1, Type.MESSAGE, false),
                field(NriApi.getDescriptor(), "CreateContainerResponse", "update", 2, Type.MESSAGE, true),
                field(NriApi.getDescriptor(), "ContainerAdjustment", "linux", 6, Type.MESSAGE, false),
                field(NriApi.getDescriptor(), "LinuxContainerAdjustment", "resources", 2, Type.MESSAGE, false),
                field(NriApi.getDescriptor(), "LinuxResources", "cpu", 2, Type.MESSAGE, false),
                field(NriApi.getDescriptor(), "LinuxResources", "memory", 1, Type.MESSAGE, false),
                field(NriApi.getDescriptor(), "LinuxCPU", "cpus", 6, Type.STRING, false),
                field(NriApi.getDescriptor(), "LinuxCPU", "mems", 7, Type.STRING, false),
                field(NriApi.getDescriptor(), "LinuxCPU", "quota", 2, Type.MESSAGE, false),
                field(NriApi.getDescriptor(), "OptionalInt64", "value", 1, Type.INT64, false),
                field(NriApi.getDescriptor(), "OptionalUInt64", "value", 1, Type.UINT64, false),
                // the updates of other containers
                field(NriApi.getDescriptor(), "ContainerUpdate", "container_id", 1, Type.STRING, false),
                field(NriApi.getDescriptor(), "ContainerUpdate", "linux", 2, Type.MESSAGE, false),
                field(NriApi.getDescriptor(), "ContainerUpdate", "ignore_failure", 3, Type.BOOL, false),
                field(NriApi.getDescriptor(), "LinuxContainerUpdate", "resources", 1, Type.MESSAGE, false),
                // the handshake
                field(NriApi.getDescriptor(), "RegisterPluginRequest", "plugin_idx", 2, Type.STRING, false),
                field(NriApi.getDescriptor(), "RegisterPluginRequest", "NRI_version", 3, Type.STRING, false),
                field(NriApi.getDescriptor(), "ConfigureRequest", "request_timeout", 5, Type.INT64, false),
                field(NriApi.getDescriptor(), "ConfigureRequest", "NRI_version", 6, Type.STRING, false),
                field(NriApi.getDescriptor(), "ConfigureResponse", "events", 2, Type.INT32, false),
                field(NriApi.getDescriptor(), "SynchronizeRequest", "more", 3, Type.BOOL, false),
                field(NriApi.getDescriptor(), "SynchronizeResponse", "more", 2, Type.BOOL, false),
                field(NriApi.getDescriptor(), "SynchronizeResponse", "update", 1, Type.MESSAGE, true),
                // what the agent keys on
                field(NriApi.getDescriptor(), "PodSandbox", "uid", 3, Type.STRING, false),
                field(NriApi.getDescriptor(), "LinuxPodSandbox", "pod_resources", 2, Type.MESSAGE, false),
                field(NriApi.getDescriptor(), "Container", "linux", 11, Type.MESSAGE, false),
                field(NriApi.getDescriptor(), "LinuxContainer", "cgroups_path", 5, Type.STRING, false),
                // the ttrpc envelope
                field(TtrpcEnvelope.getDescriptor(), "Request", "payload", 3, Type.BYTES, false),
                field(TtrpcEnvelope.getDescriptor(), "Request", "timeout_nano", 4, Type.INT64, false),
                field(TtrpcEnvelope.getDescriptor(), "Request", "metadata", 5, Type.MESSAGE, true),
                field(TtrpcEnvelope.getDescriptor(), "Response", "status", 1, Type.MESSAGE, false),
                field(TtrpcEnvelope.getDescriptor(), "Status", "details", 3, Type.BYTES, true));
    }

    private static Arguments field(
            com.google.protobuf.Descriptors.FileDescriptor file,
            String message,
            String name,
            int number,
            Type type,
            boolean repeated) {
        return Arguments.of(file, message, name, number, type, repeated);
    }

    @ParameterizedTest(name = "{1}.{2} = {3}")
    @MethodSource("pinnedFields")
    void fieldNumberAndTypeAreUpstreams(
            com.google.protobuf.Descriptors.FileDescriptor file,
            String message,
            String name,
            int number,
            Type type,
            boolean repeated) {
        Descriptor descriptor = file.findMessageTypeByName(message);
        assertThat(descriptor).as(message).isNotNull();
        FieldDescriptor field = descriptor.findFieldByName(name);
        assertThat(field).as(message + "." + name).isNotNull();
        assertThat(field.getNumber()).as(message + "." + name).isEqualTo(number);
        assertThat(field.getType()).as(message + "." + name).isEqualTo(type);
        assertThat(field.isRepeated()).as(message + "." + name + " repeated").isEqualTo(repeated);
    }

    @Test
    void theProtoPackageGivesTheTtrpcServiceNamesRuntimesCall() {
        assertThat(NriApi.getDescriptor().getPackage()).isEqualTo("nri.pkg.api.v1alpha1");
        ServiceDescriptor plugin = NriApi.getDescriptor().findServiceByName("Plugin");
        ServiceDescriptor runtime = NriApi.getDescriptor().findServiceByName("Runtime");
        assertThat(plugin.getFullName()).isEqualTo("nri.pkg.api.v1alpha1.Plugin");
        assertThat(runtime.getFullName()).isEqualTo("nri.pkg.api.v1alpha1.Runtime");
        assertThat(runtime.getMethods())
                .extracting(m -> m.getName())
                .containsExactly("RegisterPlugin", "UpdateContainers");
        assertThat(plugin.getMethods())
                .extracting(m -> m.getName())
                .contains(
                        "Configure",
                        "Synchronize",
                        "Shutdown",
                        "CreateContainer",
                        "UpdateContainer",
                        "StopContainer",
                        "StateChange",
                        "RemoveContainer",
                        "RemovePodSandbox");
        assertThat(TtrpcEnvelope.getDescriptor().getPackage()).isEqualTo("ttrpc");
    }

    @Test
    void theEventNumbersAreUpstreams() {
        var events = NriApi.getDescriptor().findEnumTypeByName("Event");
        List<String> expected = List.of(
                "UNKNOWN",
                "RUN_POD_SANDBOX",
                "STOP_POD_SANDBOX",
                "REMOVE_POD_SANDBOX",
                "CREATE_CONTAINER",
                "POST_CREATE_CONTAINER",
                "START_CONTAINER",
                "POST_START_CONTAINER",
                "UPDATE_CONTAINER",
                "POST_UPDATE_CONTAINER",
                "STOP_CONTAINER",
                "REMOVE_CONTAINER",
                "UPDATE_POD_SANDBOX",
                "POST_UPDATE_POD_SANDBOX",
                "VALIDATE_CONTAINER_ADJUSTMENT",
                "LAST");
        for (int i = 0; i < expected.size(); i++) {
            assertThat(events.findValueByNumber(i).getName()).as("Event " + i).isEqualTo(expected.get(i));
        }
    }

    @Test
    void theSpokenVersionIsTheOneTheSubsetFollows() {
        assertThat(NriVersion.SPOKEN).isEqualTo("v0.12.3");
    }
}
