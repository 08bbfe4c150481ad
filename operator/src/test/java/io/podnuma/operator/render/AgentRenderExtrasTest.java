package io.podnuma.operator.render;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.AffinityBuilder;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.podnuma.crds.v1alpha1.NumaResourcePolicySpec;
import io.podnuma.crds.v1alpha1.policy.AdmissionAction;
import io.podnuma.crds.v1alpha1.policy.CpuManager;
import io.podnuma.crds.v1alpha1.policy.CpuManagerPolicy;
import io.podnuma.crds.v1alpha1.policy.PodLevelResources;
import io.podnuma.crds.v1alpha1.policy.TopologyManager;
import io.podnuma.crds.v1alpha1.policy.TopologyManagerPolicy;
import io.podnuma.crds.v1alpha1.policy.TopologyManagerScope;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The agent pods' extra variables, arguments and affinity: after the operator's own, never instead of them. */
class AgentRenderExtrasTest {

    private static final AgentRollout ROLLOUT = AgentRollout.defaults("podnuma.local/node-agent:1");
    private static final NumaResourcePolicySpec SPEC = new NumaResourcePolicySpec(
            null,
            null,
            new TopologyManager(TopologyManagerPolicy.SINGLE_NUMA_NODE, TopologyManagerScope.POD, null),
            new CpuManager(CpuManagerPolicy.STATIC, "0", null, null, null),
            null,
            new PodLevelResources(true, null),
            AdmissionAction.WARN,
            false);

    private static PodSpec pod(AgentRollout rollout) {
        return AgentRender.render("p", SPEC, rollout)
                .daemonSet()
                .getSpec()
                .getTemplate()
                .getSpec();
    }

    @Test
    void withoutExtrasThePodIsTheOperatorsAlone() {
        PodSpec pod = pod(ROLLOUT);
        Container c = pod.getContainers().getFirst();
        assertThat(c.getArgs()).containsExactly("run", "--config", "/etc/podnuma/agent.yaml");
        assertThat(c.getEnv()).extracting(EnvVar::getName).containsExactly("PODNUMA_NODE_NAME");
        assertThat(pod.getAffinity()).isNull();
    }

    @Test
    void extraEnvAndArgsFollowTheOperatorsAndTheAffinityIsThePods() {
        Affinity affinity = new AffinityBuilder()
                .withNewNodeAffinity()
                .withNewRequiredDuringSchedulingIgnoredDuringExecution()
                .addNewNodeSelectorTerm()
                .addNewMatchExpression()
                .withKey("kubernetes.io/arch")
                .withOperator("In")
                .withValues("amd64")
                .endMatchExpression()
                .endNodeSelectorTerm()
                .endRequiredDuringSchedulingIgnoredDuringExecution()
                .endNodeAffinity()
                .build();
        AgentRollout rollout = ROLLOUT.toBuilder()
                .apiServer(new ApiServerEndpoint("10.0.0.1", 6443))
                .extras(new AgentExtras(
                        List.of(new AgentExtras.Env("JAVA_TOOL_OPTIONS", "-Xlog:gc"), new AgentExtras.Env("TZ", "UTC")),
                        List.of("--example", "1"),
                        Optional.of(affinity)))
                .build();
        PodSpec pod = pod(rollout);
        Container c = pod.getContainers().getFirst();
        assertThat(c.getArgs()).containsExactly("run", "--config", "/etc/podnuma/agent.yaml", "--example", "1");
        assertThat(c.getEnv())
                .extracting(e -> e.getName() + "=" + (e.getValue() == null ? "<from>" : e.getValue()))
                .containsExactly(
                        "PODNUMA_NODE_NAME=<from>",
                        "KUBERNETES_SERVICE_HOST=10.0.0.1",
                        "KUBERNETES_SERVICE_PORT=6443",
                        "JAVA_TOOL_OPTIONS=-Xlog:gc",
                        "TZ=UTC");
        assertThat(pod.getAffinity()).isEqualTo(affinity);
        assertThat(pod.getNodeSelector()).as("the policy's nodes still").containsEntry(AgentRender.POLICY_LABEL, "p");
        assertThat(c.getSecurityContext()).as("untouched").isEqualTo(AgentSecurity.containerContext());
    }

    @Test
    void aVariableTheOperatorSetsOrAnAgentSettingIsRefused() {
        for (String name : List.of("PODNUMA_NODE_NAME", "KUBERNETES_SERVICE_HOST", "PODNUMA_LOG_LEVEL", "A=B", "")) {
            assertThatThrownBy(
                            () -> new AgentExtras(List.of(new AgentExtras.Env(name, "x")), List.of(), Optional.empty()))
                    .as(name)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("allowed " + AgentExtras.ENV_NAME_RULE);
        }
        assertThatThrownBy(() -> new AgentExtras(
                        List.of(new AgentExtras.Env("A", "1"), new AgentExtras.Env("A", "2")),
                        List.of(),
                        Optional.empty()))
                .hasMessage("extra env: A: set twice");
    }
}
