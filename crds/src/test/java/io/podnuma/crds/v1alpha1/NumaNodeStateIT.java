package io.podnuma.crds.v1alpha1;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.podnuma.controlplane.CommandResult;
import io.podnuma.controlplane.ControlPlane;
import io.podnuma.controlplane.ControlPlaneExtension;
import io.podnuma.crds.ItSupport;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** A node agent's report, written the way the agent will: server-side apply with its own field manager. */
@ExtendWith(ControlPlaneExtension.class)
class NumaNodeStateIT {

    static final PatchContext AGENT_APPLY = new PatchContext.Builder()
            .withPatchType(PatchType.SERVER_SIDE_APPLY)
            .withFieldManager("podnuma-agent")
            .withForce(true)
            .build();

    @BeforeAll
    static void installCrds(ControlPlane cp) {
        ItSupport.installCrds(cp);
    }

    @AfterEach
    void deleteNodeStates(ControlPlane cp) {
        ItSupport.succeeded(cp.kubectl("delete", "numanodestates", "--all", "--wait=true"));
    }

    private static void publish(ControlPlane cp, NumaNodeState state) {
        NumaNodeState object = new NumaNodeState(state.getMetadata().getName());
        cp.client().resource(object).patch(AGENT_APPLY, object);
        cp.client().resource(state).subresource("status").patch(AGENT_APPLY, state);
    }

    @Test
    void theWorkedExampleIsStoredWholeAndListedAtAGlance(ControlPlane cp) {
        NumaNodeState state = NumaNodeStateSerializationTest.workedExample();

        publish(cp, state);

        NumaNodeState back =
                cp.client().resources(NumaNodeState.class).withName("node-a").get();
        assertThat(back.getStatus()).isEqualTo(state.getStatus());
        JsonNode raw = ItSupport.getJson(cp, "nns", "node-a");
        assertThat(raw.at("/status/allocations/0/containers/2/assignment").asText())
                .isEqualTo("PodShared");
        assertThat(raw.at("/status/topology/numaNodes/0/distances/1/distance").asInt())
                .isEqualTo(21);

        List<String> lines =
                ItSupport.succeeded(cp.kubectl("get", "nns")).stdout().lines().toList();
        assertThat(lines.getFirst().split("\\s+"))
                .containsExactly("NAME", "POLICY", "NUMA", "CPUS", "EXCLUSIVE", "READY", "AGE");
        assertThat(lines.get(1).split("\\s+"))
                .startsWith("node-a")
                .containsSubsequence("pod-scope-hybrid", "2", "16", "8", "True");
    }

    @Test
    void allocationsMergeByPodUid(ControlPlane cp) {
        NumaNodeState state = NumaNodeStateSerializationTest.workedExample();
        publish(cp, state);

        // A second writer's apply of one more pod merges into the list instead of replacing it.
        String yaml = """
                apiVersion: podnuma.io/v1alpha1
                kind: NumaNodeState
                metadata:
                  name: node-a
                status:
                  allocations:
                    - namespace: batch
                      name: worker-1
                      uid: 11111111-2222-4333-8444-555555555555
                      containers:
                        - name: main
                          assignment: NodeShared
                          cpus: "1-7"
                """;
        ItSupport.succeeded(cp.kubectlWithStdin(
                yaml, "apply", "--server-side", "--subresource=status", "--field-manager=debug", "-f", "-"));

        JsonNode allocations = ItSupport.getJson(cp, "nns", "node-a").at("/status/allocations");
        assertThat(allocations.findValuesAsText("name")).contains("engine-0", "worker-1");
    }

    @Test
    void theNameMustBeTheNodes(ControlPlane cp) {
        CommandResult result = cp.kubectlWithStdin("""
                apiVersion: podnuma.io/v1alpha1
                kind: NumaNodeState
                metadata:
                  name: node-a
                spec:
                  nodeName: node-b
                """, "apply", "-f", "-");

        assertThat(result.exitCode()).isNotZero();
        assertThat(result.stderr())
                .contains("The NumaNodeState \"node-a\" is invalid: spec.nodeName: Invalid value:"
                        + " spec.nodeName must equal metadata.name: a NumaNodeState is named after its node");
    }

    @Test
    void badCpuListsInStatusAreRejected(ControlPlane cp) {
        publish(cp, new NumaNodeState("node-a"));
        String yaml = """
                apiVersion: podnuma.io/v1alpha1
                kind: NumaNodeState
                metadata:
                  name: node-a
                status:
                  sharedPool: "1-7;9"
                """;

        CommandResult result = cp.kubectlWithStdin(
                yaml, "apply", "--server-side", "--subresource=status", "--field-manager=debug", "-f", "-");

        assertThat(result.exitCode()).isNotZero();
        assertThat(result.stderr()).contains("status.sharedPool: Invalid value: \"1-7;9\"");
    }
}
