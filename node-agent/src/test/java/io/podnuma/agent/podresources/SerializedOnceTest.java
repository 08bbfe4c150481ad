package io.podnuma.agent.podresources;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.Drainable;
import io.grpc.KnownLength;
import io.grpc.MethodDescriptor;
import io.grpc.ServerMethodDefinition;
import io.podnuma.agent.engine.node.NodeConfig;
import io.podnuma.podresources.v1.ListPodResourcesResponse;
import io.podnuma.podresources.v1.PodResourcesListerGrpc;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import org.junit.jupiter.api.Test;

/** The kept bytes are the message's own, for the message asked for, in the form gRPC's framer takes at once. */
class SerializedOnceTest {

    private static final MethodDescriptor.Marshaller<ListPodResourcesResponse> PLAIN =
            PodResourcesListerGrpc.getListMethod().getResponseMarshaller();

    @Test
    void streamsTheMessagesOwnBytesForWhicheverMessageIsAsked() throws Exception {
        ListPodResourcesResponse hybrid = PodResourcesAnswers.list(
                EngineStates.admit(EngineStates.config(NodeConfig.TopologyScope.POD, true), EngineStates.hybrid())
                        .snapshot(),
                DeviceAssignments.NONE);
        ListPodResourcesResponse bestEffort = PodResourcesAnswers.list(
                EngineStates.admit(
                                EngineStates.config(NodeConfig.TopologyScope.CONTAINER, false),
                                EngineStates.bestEffort())
                        .snapshot(),
                DeviceAssignments.NONE);
        SerializedOnce<ListPodResourcesResponse> marshaller = new SerializedOnce<>(PLAIN);

        for (ListPodResourcesResponse m : new ListPodResourcesResponse[] {hybrid, hybrid, bestEffort, hybrid}) {
            InputStream stream = marshaller.stream(m);
            assertThat(stream).isInstanceOf(KnownLength.class).isInstanceOf(Drainable.class);
            assertThat(stream.available()).isEqualTo(m.getSerializedSize());
            ByteArrayOutputStream drained = new ByteArrayOutputStream();
            assertThat(((Drainable) stream).drainTo(drained)).isEqualTo(m.getSerializedSize());
            assertThat(drained.toByteArray()).isEqualTo(m.toByteArray());
            assertThat(stream.available()).as("drained").isZero();
            assertThat(marshaller.parse(marshaller.stream(m))).isEqualTo(m);
        }
    }

    @Test
    void theServedDefinitionKeepsEveryMethodAndServesListAndAllocatableOnce() {
        var scenario = EngineStates.admit(EngineStates.config(NodeConfig.TopologyScope.CONTAINER, false));
        PodResourcesService service = new PodResourcesService(scenario::snapshot, DeviceSource.NONE);

        var definition = service.definition();

        assertThat(definition.getMethods())
                .extracting(m -> m.getMethodDescriptor().getFullMethodName())
                .containsExactlyInAnyOrderElementsOf(service.bindService().getMethods().stream()
                        .map(m -> m.getMethodDescriptor().getFullMethodName())
                        .toList());
        for (ServerMethodDefinition<?, ?> m : definition.getMethods()) {
            boolean once = m.getMethodDescriptor().getResponseMarshaller() instanceof SerializedOnce;
            assertThat(once)
                    .as(m.getMethodDescriptor().getFullMethodName())
                    .isEqualTo(!m.getMethodDescriptor().getBareMethodName().equals("Get"));
        }
    }
}
