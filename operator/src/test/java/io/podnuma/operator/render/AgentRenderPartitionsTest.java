package io.podnuma.operator.render;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Capabilities;
import io.podnuma.crds.agent.v1alpha1.NodeAgentConfigYaml;
import io.podnuma.crds.v1alpha1.NumaResourcePolicySpec;
import io.podnuma.crds.v1alpha1.policy.CpuManager;
import io.podnuma.crds.v1alpha1.policy.CpuManagerPolicy;
import io.podnuma.crds.v1alpha1.policy.CpuPartition;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code cpuManager.partition} in what the operator renders: the agent gets {@code CAP_SYS_ADMIN}, the one capability
 * the kernel requires to make a cpuset partition below the root, only for a policy with partitions and only where the
 * operator may grant it ({@code agentCpusetPartitions}, the chart's {@code agent.cpusetPartitions}); the policy's
 * setting reaches the agent's file either way.
 */
class AgentRenderPartitionsTest {

    private static NumaResourcePolicySpec spec(CpuPartition partition) {
        return new NumaResourcePolicySpec(
                null,
                null,
                null,
                new CpuManager(CpuManagerPolicy.STATIC, "0", null, null, null).withPartition(partition),
                null,
                null,
                null,
                null);
    }

    @ParameterizedTest
    @CsvSource({
        "NONE, false, ''",
        "NONE, true, ''",
        "ISOLATED, false, ''",
        "ISOLATED, true, SYS_ADMIN",
        "ROOT, true, SYS_ADMIN",
    })
    void sysAdminOnlyForAPolicyWithPartitionsWhereTheOperatorMayGrantIt(
            CpuPartition partition, boolean allowed, String added) {
        RenderedAgent r = AgentRender.render(
                "low-latency",
                spec(partition),
                AgentRollout.defaults("podnuma.local/node-agent:1").toBuilder()
                        .cpusetPartitions(allowed)
                        .build());

        Capabilities caps = r.daemonSet()
                .getSpec()
                .getTemplate()
                .getSpec()
                .getContainers()
                .getFirst()
                .getSecurityContext()
                .getCapabilities();
        assertThat(caps.getDrop()).containsExactly("ALL");
        assertThat(caps.getAdd() == null ? List.of() : caps.getAdd())
                .isEqualTo(added.isEmpty() ? List.of() : List.of(added));
        assertThat(NodeAgentConfigYaml.read(r.configMap().getData().get(AgentRender.CONFIG_KEY))
                        .policy()
                        .cpuManager()
                        .partition())
                .isEqualTo(partition);
    }
}
