package io.podnuma.crds.v1alpha1;

import static io.podnuma.crds.v1alpha1.TestSupport.SERIALIZATION;
import static io.podnuma.crds.v1alpha1.TestSupport.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.podnuma.crds.v1alpha1.nodestate.AgentError;
import io.podnuma.crds.v1alpha1.nodestate.AssignmentType;
import io.podnuma.crds.v1alpha1.nodestate.CacheGroup;
import io.podnuma.crds.v1alpha1.nodestate.ContainerAllocation;
import io.podnuma.crds.v1alpha1.nodestate.HugePages;
import io.podnuma.crds.v1alpha1.nodestate.NodeTopology;
import io.podnuma.crds.v1alpha1.nodestate.NumaDistance;
import io.podnuma.crds.v1alpha1.nodestate.NumaNode;
import io.podnuma.crds.v1alpha1.nodestate.PodAllocation;
import io.podnuma.crds.v1alpha1.nodestate.Socket;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NumaNodeStateSerializationTest {

    /** A 2-socket, 2-NUMA, 16-CPU machine running the spec's worked example pod (budget 8, sidecar 1, app 6). */
    static NumaNodeState workedExample() {
        NumaNodeState state = new NumaNodeState("node-a");
        NodeTopology topology = new NodeTopology(
                16,
                2,
                2,
                List.of(new Socket(0, "0-7", List.of(0)), new Socket(1, "8-15", List.of(1))),
                List.of(
                        new NumaNode(
                                0,
                                "0-7",
                                new Quantity("64Gi"),
                                List.of(new HugePages("2Mi", new Quantity("1Gi"))),
                                List.of(new NumaDistance(0, 10), new NumaDistance(1, 21))),
                        new NumaNode(
                                1,
                                "8-15",
                                new Quantity("64Gi"),
                                List.of(),
                                List.of(new NumaDistance(0, 21), new NumaDistance(1, 10)))),
                List.of(new CacheGroup(0, "0-7"), new CacheGroup(1, "8-15")));
        PodAllocation pod = new PodAllocation(
                "trading",
                "engine-0",
                "0b6f3c1e-2a44-4d2b-9a57-6f7d3e2c1a90",
                "8-15",
                List.of(1),
                Map.of("memory", new Quantity("16Gi")),
                List.of(
                        new ContainerAllocation("sidecar-a", AssignmentType.EXCLUSIVE, "8", List.of(1), null),
                        new ContainerAllocation(
                                "main",
                                AssignmentType.EXCLUSIVE,
                                "9-14",
                                List.of(1),
                                Map.of("memory", new Quantity("12Gi"))),
                        new ContainerAllocation("sidecar-b", AssignmentType.POD_SHARED, "15", List.of(1), null)));
        state.setStatus(new NumaNodeStateStatus(
                "pod-scope-hybrid",
                "9f86d081884c7d65",
                topology,
                "0",
                "1-7",
                8,
                List.of(pod),
                List.of(new ConditionBuilder()
                        .withType(NumaNodeStateStatus.CONDITION_READY)
                        .withStatus("True")
                        .withReason("Reconciled")
                        .withMessage("1 pod pinned")
                        .withLastTransitionTime("2026-05-01T12:00:00Z")
                        .build()),
                new AgentError("2026-05-01T11:59:00Z", "CgroupWriteFailed", "cpuset.cpus of pod x: EBUSY")));
        return state;
    }

    @Test
    void namedAfterItsNode() {
        NumaNodeState state = new NumaNodeState("node-a");

        assertThat(state.getMetadata().getName()).isEqualTo("node-a");
        assertThat(state.getSpec().nodeName()).isEqualTo("node-a");
        assertThat(state.getCRDName()).isEqualTo("numanodestates.podnuma.io");
        assertThat(state.getScope()).isEqualTo("Cluster");
    }

    @Test
    void assignmentTypesUseTheirApiSpelling() {
        JsonNode containers = json(workedExample()).at("/status/allocations/0/containers");

        assertThat(containers.findValuesAsText("assignment")).containsExactly("Exclusive", "Exclusive", "PodShared");
        assertThat(json(AssignmentType.NODE_SHARED).asText()).isEqualTo("NodeShared");
    }

    @Test
    void roundTripsThroughYaml() {
        NumaNodeState state = workedExample();

        NumaNodeState back = SERIALIZATION.unmarshal(SERIALIZATION.asYaml(state), NumaNodeState.class);

        assertThat(back.getSpec()).isEqualTo(state.getSpec());
        assertThat(back.getStatus()).isEqualTo(state.getStatus());
    }
}
