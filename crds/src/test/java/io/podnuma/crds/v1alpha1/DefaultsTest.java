package io.podnuma.crds.v1alpha1;

import static io.podnuma.crds.v1alpha1.TestSupport.json;
import static io.podnuma.crds.v1alpha1.TestSupport.policySpecSchema;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.podnuma.crds.v1alpha1.policy.AdmissionAction;
import io.podnuma.crds.v1alpha1.policy.CpuManager;
import io.podnuma.crds.v1alpha1.policy.CpuManagerPolicy;
import io.podnuma.crds.v1alpha1.policy.MemoryManager;
import io.podnuma.crds.v1alpha1.policy.MemoryManagerPolicy;
import io.podnuma.crds.v1alpha1.policy.PodLevelResources;
import io.podnuma.crds.v1alpha1.policy.TopologyManager;
import io.podnuma.crds.v1alpha1.policy.TopologyManagerPolicy;
import io.podnuma.crds.v1alpha1.policy.TopologyManagerScope;
import org.junit.jupiter.api.Test;

/**
 * The Java records and the CRD schema must default alike: the API server applies the schema's defaults, the records
 * apply theirs to objects built or read in Java (e.g. by the agent's simulate command from a file).
 */
class DefaultsTest {

    @Test
    void anEmptySpecReadsAsTheDocumentedDefaults() {
        NumaResourcePolicySpec spec =
                TestSupport.SERIALIZATION.unmarshal("{\"nodeSelector\":{}}", NumaResourcePolicySpec.class);

        assertThat(spec.priority()).isZero();
        assertThat(spec.topologyManager().policy()).isEqualTo(TopologyManagerPolicy.NONE);
        assertThat(spec.topologyManager().scope()).isEqualTo(TopologyManagerScope.CONTAINER);
        assertThat(spec.topologyManager().options().preferClosestNumaNodes()).isFalse();
        assertThat(spec.topologyManager().options().maxAllowableNumaNodes()).isEqualTo(8);
        assertThat(spec.cpuManager().policy()).isEqualTo(CpuManagerPolicy.NONE);
        assertThat(spec.cpuManager().reservedCpus()).isNull();
        assertThat(spec.cpuManager().reservedCpuCount()).isNull();
        assertThat(spec.cpuManager().options().anyEnabled()).isFalse();
        assertThat(spec.cpuManager().reconcilePeriod()).isEqualTo("10s");
        assertThat(spec.memoryManager().policy()).isEqualTo(MemoryManagerPolicy.NONE);
        assertThat(spec.memoryManager().reservedMemory()).isNull();
        assertThat(spec.podLevelResources().enabled()).isTrue();
        assertThat(spec.podLevelResources().budgetAnnotation()).isNull();
        assertThat(spec.admission()).isEqualTo(AdmissionAction.WARN);
        assertThat(spec.exportNodeResourceTopology()).isFalse();
    }

    @Test
    void objectDefaultsInTheSchemaEqualTheRecordDefaults() {
        JsonNode spec = policySpecSchema();

        assertThat(json(spec.at("/properties/topologyManager/default"))).isEqualTo(json(TopologyManager.defaults()));
        assertThat(json(spec.at("/properties/topologyManager/properties/options/default")))
                .isEqualTo(json(TopologyManager.defaults().options()));
        assertThat(json(spec.at("/properties/cpuManager/default"))).isEqualTo(json(CpuManager.defaults()));
        assertThat(json(spec.at("/properties/cpuManager/properties/options/default")))
                .isEqualTo(json(CpuManager.defaults().options()));
        assertThat(json(spec.at("/properties/memoryManager/default"))).isEqualTo(json(MemoryManager.defaults()));
        assertThat(json(spec.at("/properties/podLevelResources/default")))
                .isEqualTo(json(PodLevelResources.defaults()));
    }

    @Test
    void scalarDefaultsInTheSchemaEqualTheRecordDefaults() {
        JsonNode spec = policySpecSchema();
        NumaResourcePolicySpec defaults =
                new NumaResourcePolicySpec(new LabelSelector(), null, null, null, null, null, null, null);
        JsonNode wire = json(defaults);

        for (String field : new String[] {"priority", "admission", "exportNodeResourceTopology"}) {
            assertThat(spec.at("/properties/" + field + "/default"))
                    .as("schema default of spec.%s", field)
                    .isEqualTo(wire.get(field));
        }
        assertThat(spec.at("/properties/cpuManager/properties/reconcilePeriod/default")
                        .asText())
                .isEqualTo(CpuManager.DEFAULT_RECONCILE_PERIOD);
        assertThat(spec.at("/properties/topologyManager/properties/policy/default")
                        .asText())
                .isEqualTo("none");
        assertThat(spec.at("/properties/memoryManager/properties/policy/default")
                        .asText())
                .isEqualTo("None");
    }
}
