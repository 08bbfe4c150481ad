package io.podnuma.nri;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor.Type;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.Descriptors.ServiceDescriptor;
import io.podnuma.nri.v1alpha1.NriApi;
import io.podnuma.ttrpc.TtrpcEnvelope;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Pins the field numbers and types NRI v0.12.3 uses where a mistake would silently lose the pinning (the
 * adjustment path, the event mask, split sync) or break the envelope: a renumbered field still compiles and
 * round-trips in Java, but the runtime would not see it.
 */
class NriApiDescriptorTest {

    static Stream<PinnedField> pinnedFields() {
        return Stream.of(
                // CreateContainerResponse.adjust → ContainerAdjustment.linux → .resources → .cpu → cpus/mems
                nri("CreateContainerResponse", "adjust", 1, Type.MESSAGE, false),
                nri("CreateContainerResponse", "update", 2, Type.MESSAGE, true),
                nri("ContainerAdjustment", "linux", 6, Type.MESSAGE, false),
                nri("LinuxContainerAdjustment", "resources", 2, Type.MESSAGE, false),
                nri("LinuxResources", "cpu", 2, Type.MESSAGE, false),
                nri("LinuxResources", "memory", 1, Type.MESSAGE, false),
                nri("LinuxCPU", "cpus", 6, Type.STRING, false),
                nri("LinuxCPU", "mems", 7, Type.STRING, false),
                nri("LinuxCPU", "quota", 2, Type.MESSAGE, false),
                nri("OptionalInt64", "value", 1, Type.INT64, false),
                nri("OptionalUInt64", "value", 1, Type.UINT64, false),
                // the updates of other containers
                nri("ContainerUpdate", "container_id", 1, Type.STRING, false),
                nri("ContainerUpdate", "linux", 2, Type.MESSAGE, false),
                nri("ContainerUpdate", "ignore_failure", 3, Type.BOOL, false),
                nri("LinuxContainerUpdate", "resources", 1, Type.MESSAGE, false),
                // the handshake
                nri("RegisterPluginRequest", "plugin_idx", 2, Type.STRING, false),
                nri("RegisterPluginRequest", "NRI_version", 3, Type.STRING, false),
                nri("ConfigureRequest", "request_timeout", 5, Type.INT64, false),
                nri("ConfigureRequest", "NRI_version", 6, Type.STRING, false),
                nri("ConfigureResponse", "events", 2, Type.INT32, false),
                nri("SynchronizeRequest", "more", 3, Type.BOOL, false),
                nri("SynchronizeResponse", "more", 2, Type.BOOL, false),
                nri("SynchronizeResponse", "update", 1, Type.MESSAGE, true),
                // what the agent keys on
                nri("PodSandbox", "uid", 3, Type.STRING, false),
                nri("LinuxPodSandbox", "pod_resources", 2, Type.MESSAGE, false),
                nri("Container", "linux", 11, Type.MESSAGE, false),
                nri("LinuxContainer", "cgroups_path", 5, Type.STRING, false),
                // the ttrpc envelope
                ttrpc("Request", "payload", 3, Type.BYTES, false),
                ttrpc("Request", "timeout_nano", 4, Type.INT64, false),
                ttrpc("Request", "metadata", 5, Type.MESSAGE, true),
                ttrpc("Response", "status", 1, Type.MESSAGE, false),
                ttrpc("Status", "details", 3, Type.BYTES, true));
    }

    /** A field as upstream numbers and types it. */
    record PinnedField(FileDescriptor file, String message, String name, int number, Type type, boolean repeated) {

        @Override
        public String toString() {
            return message + "." + name + " = " + number;
        }
    }

    private static PinnedField nri(String message, String name, int number, Type type, boolean repeated) {
        return new PinnedField(NriApi.getDescriptor(), message, name, number, type, repeated);
    }

    private static PinnedField ttrpc(String message, String name, int number, Type type, boolean repeated) {
        return new PinnedField(TtrpcEnvelope.getDescriptor(), message, name, number, type, repeated);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("pinnedFields")
    void fieldNumberAndTypeAreUpstreams(PinnedField pinned) {
        String where = pinned.message() + "." + pinned.name();
        Descriptor descriptor = pinned.file().findMessageTypeByName(pinned.message());
        assertThat(descriptor).as(pinned.message()).isNotNull();
        FieldDescriptor field = descriptor.findFieldByName(pinned.name());
        assertThat(field).as(where).isNotNull();
        assertThat(field.getNumber()).as(where).isEqualTo(pinned.number());
        assertThat(field.getType()).as(where).isEqualTo(pinned.type());
        assertThat(field.isRepeated()).as(where + " repeated").isEqualTo(pinned.repeated());
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
