package io.podnuma.crds.v1alpha1;

import static io.podnuma.crds.v1alpha1.TestSupport.SERIALIZATION;
import static io.podnuma.crds.v1alpha1.TestSupport.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.podnuma.crds.v1alpha1.policy.AdmissionAction;
import io.podnuma.crds.v1alpha1.policy.CpuManager;
import io.podnuma.crds.v1alpha1.policy.CpuManagerOptions;
import io.podnuma.crds.v1alpha1.policy.CpuManagerPolicy;
import io.podnuma.crds.v1alpha1.policy.CpuPartition;
import io.podnuma.crds.v1alpha1.policy.FailingNode;
import io.podnuma.crds.v1alpha1.policy.MemoryManager;
import io.podnuma.crds.v1alpha1.policy.MemoryManagerPolicy;
import io.podnuma.crds.v1alpha1.policy.NumaMemoryReservation;
import io.podnuma.crds.v1alpha1.policy.PodLevelResources;
import io.podnuma.crds.v1alpha1.policy.PolicyHash;
import io.podnuma.crds.v1alpha1.policy.TopologyManager;
import io.podnuma.crds.v1alpha1.policy.TopologyManagerPolicy;
import io.podnuma.crds.v1alpha1.policy.TopologyManagerScope;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NumaResourcePolicySerializationTest {

    private static NumaResourcePolicy hybridPolicy() {
        return new NumaResourcePolicy(
                "hybrid",
                new NumaResourcePolicySpec(
                        new LabelSelectorBuilder()
                                .addToMatchLabels("podnuma.io/pool", "latency")
                                .build(),
                        10,
                        new TopologyManager(TopologyManagerPolicy.BEST_EFFORT, TopologyManagerScope.POD, null),
                        new CpuManager(
                                CpuManagerPolicy.STATIC,
                                "0-1",
                                null,
                                new CpuManagerOptions(true, null, null, null, true, null),
                                "5s"),
                        new MemoryManager(
                                MemoryManagerPolicy.STATIC,
                                List.of(new NumaMemoryReservation(
                                        0,
                                        Map.of(
                                                "memory",
                                                new Quantity("1Gi"),
                                                "hugepages-2Mi",
                                                new Quantity("512Mi"))))),
                        new PodLevelResources(true, "podnuma.io/pod-resources"),
                        AdmissionAction.EVICT,
                        true));
    }

    @Test
    void identityComesFromTheAnnotations() {
        NumaResourcePolicy policy = hybridPolicy();

        assertThat(policy.getApiVersion()).isEqualTo("podnuma.io/v1alpha1");
        assertThat(policy.getKind()).isEqualTo("NumaResourcePolicy");
        assertThat(policy.getPlural()).isEqualTo("numaresourcepolicies");
        assertThat(policy.getSingular()).isEqualTo("numaresourcepolicy");
        assertThat(policy.getCRDName()).isEqualTo("numaresourcepolicies.podnuma.io");
        assertThat(policy.getScope()).isEqualTo("Cluster");
    }

    @Test
    void enumsUseTheKubeletSpellings() {
        JsonNode spec = json(hybridPolicy()).get("spec");

        assertThat(spec.at("/topologyManager/policy").asText()).isEqualTo("best-effort");
        assertThat(spec.at("/topologyManager/scope").asText()).isEqualTo("pod");
        assertThat(spec.at("/cpuManager/policy").asText()).isEqualTo("static");
        assertThat(spec.at("/memoryManager/policy").asText()).isEqualTo("Static");
        assertThat(spec.at("/admission").asText()).isEqualTo("Evict");
        assertThat(spec.at("/memoryManager/reservedMemory/0/limits/hugepages-2Mi")
                        .asText())
                .isEqualTo("512Mi");
    }

    @Test
    void absentOptionalFieldsAreOmittedNotNull() {
        JsonNode cpuManager = json(hybridPolicy()).at("/spec/cpuManager");

        assertThat(cpuManager.has("reservedCpus")).isTrue();
        assertThat(cpuManager.has("reservedCpuCount")).isFalse();
        assertThat(json(hybridPolicy()).has("status")).isFalse();
    }

    @Test
    void noPartitionIsLeftOutSoPoliciesWrittenBeforeTheFieldKeepTheirHash() {
        NumaResourcePolicySpec spec = hybridPolicy().getSpec();
        NumaResourcePolicySpec isolated = new NumaResourcePolicySpec(
                spec.nodeSelector(),
                spec.priority(),
                spec.topologyManager(),
                spec.cpuManager().withPartition(CpuPartition.ISOLATED),
                spec.memoryManager(),
                spec.podLevelResources(),
                spec.admission(),
                spec.exportNodeResourceTopology());

        // Left out: the hash is of the same JSON as every release before the field computed it.
        assertThat(json(hybridPolicy()).at("/spec/cpuManager").has("partition")).isFalse();
        assertThat(spec.cpuManager().partition()).isEqualTo(CpuPartition.NONE);
        assertThat(PolicyHash.of(isolated)).isNotEqualTo(PolicyHash.of(spec));
        NumaResourcePolicy back = SERIALIZATION.unmarshal(
                SERIALIZATION.asYaml(new NumaResourcePolicy("isolated", isolated)), NumaResourcePolicy.class);
        assertThat(back.getSpec().cpuManager().partition()).isEqualTo(CpuPartition.ISOLATED);
    }

    @Test
    void roundTripsThroughYaml() {
        NumaResourcePolicy policy = hybridPolicy();
        policy.setStatus(new NumaResourcePolicyStatus(
                3L,
                List.of(new ConditionBuilder()
                        .withType(NumaResourcePolicyStatus.CONDITION_READY)
                        .withStatus("False")
                        .withReason("NodesDegraded")
                        .withMessage("1 of 3 nodes degraded")
                        .withLastTransitionTime("2026-05-01T12:00:00Z")
                        .withObservedGeneration(3L)
                        .build()),
                3,
                2,
                3,
                1,
                12,
                4,
                List.of(new FailingNode("node-b", "KubeletConflict", "kubelet cpuManagerPolicy is static"))));

        NumaResourcePolicy back = SERIALIZATION.unmarshal(SERIALIZATION.asYaml(policy), NumaResourcePolicy.class);

        assertThat(back.getSpec()).isEqualTo(policy.getSpec());
        assertThat(back.getStatus()).isEqualTo(policy.getStatus());
        assertThat(back.getMetadata().getName()).isEqualTo("hybrid");
    }

    @Test
    void recordsDoNotShareTheCallersLists() {
        List<NumaMemoryReservation> reservations = new ArrayList<>();
        reservations.add(new NumaMemoryReservation(0, Map.of("memory", new Quantity("1Gi"))));
        MemoryManager memory = new MemoryManager(MemoryManagerPolicy.STATIC, reservations);

        reservations.add(new NumaMemoryReservation(1, Map.of("memory", new Quantity("1Gi"))));

        assertThat(memory.reservedMemory()).hasSize(1);
        assertThatThrownBy(() -> memory.reservedMemory().clear()).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void optionHelperSeesEveryOption() {
        assertThat(CpuManagerOptions.defaults().anyEnabled()).isFalse();
        for (int i = 0; i < 6; i++) {
            Boolean[] flags = new Boolean[6];
            flags[i] = true;
            CpuManagerOptions one = new CpuManagerOptions(flags[0], flags[1], flags[2], flags[3], flags[4], flags[5]);
            assertThat(one.anyEnabled()).as("option %d alone", i).isTrue();
        }
    }
}
