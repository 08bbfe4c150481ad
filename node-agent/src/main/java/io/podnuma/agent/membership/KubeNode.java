package io.podnuma.agent.membership;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.podnuma.agent.report.nrt.NrtApi;
import io.podnuma.crds.v1alpha1.NumaNodeState;
import java.util.EnumSet;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The agent's Node object through the API server: its UID, its policy label, the reports about it. */
public final class KubeNode implements NodeMembership {

    private static final Logger LOG = LoggerFactory.getLogger(KubeNode.class);

    /** The label the operator puts on the nodes a policy governs; without it the node has left podnuma. */
    public static final String POLICY_LABEL = "podnuma.io/policy";

    private final KubernetesClient client;
    private final String nodeName;
    private final Optional<String> policyName;
    private final Set<NodeReports> reports;

    /**
     * @param policyName the policy in force; empty: any policy label counts as membership
     * @param reports what the agent publishes about the node, deleted when it leaves
     */
    public KubeNode(KubernetesClient client, String nodeName, Optional<String> policyName, Set<NodeReports> reports) {
        this.client = Objects.requireNonNull(client, "client");
        this.nodeName = Objects.requireNonNull(nodeName, "nodeName");
        this.policyName = Objects.requireNonNull(policyName, "policyName");
        this.reports = reports.isEmpty() ? EnumSet.noneOf(NodeReports.class) : EnumSet.copyOf(reports);
    }

    /**
     * The Node's UID (the owner of its NodeResourceTopology); empty when there is no such Node or it cannot be read
     * now (the report is then written without an owner).
     */
    public Optional<String> uid() {
        try {
            Node n = client.nodes().withName(nodeName).get();
            return n == null ? Optional.empty() : Optional.of(n.getMetadata().getUid());
        } catch (RuntimeException e) {
            LOG.warn("cannot read node {} for the NodeResourceTopology owner: {}", nodeName, e.getMessage());
            return Optional.empty();
        }
    }

    @Override
    public Membership ask() {
        Node n = client.nodes().withName(nodeName).get();
        if (n == null) {
            return Membership.LEFT;
        }
        Map<String, String> labels = n.getMetadata().getLabels();
        String label = labels == null ? null : labels.get(POLICY_LABEL);
        boolean member = label != null && policyName.map(label::equals).orElse(true);
        return member ? Membership.MEMBER : Membership.LEFT;
    }

    @Override
    public void deleteReports() {
        if (reports.contains(NodeReports.NUMA_NODE_STATE)) {
            client.resources(NumaNodeState.class).withName(nodeName).delete();
        }
        if (reports.contains(NodeReports.NODE_RESOURCE_TOPOLOGY)) {
            client.genericKubernetesResources(NrtApi.CONTEXT).withName(nodeName).delete();
        }
    }
}
