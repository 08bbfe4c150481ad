package io.podnuma.operator.status;

import io.podnuma.crds.v1alpha1.NumaNodeState;
import io.podnuma.crds.v1alpha1.NumaNodeStateStatus;
import io.podnuma.crds.v1alpha1.NumaResourcePolicy;
import io.podnuma.operator.assign.Assignment;
import java.util.Collection;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Everything a policy's status is made of, as the operator observed it.
 *
 * @param policy the policy; its generation and previous status (whose conditions keep their transition times)
 * @param assignment who governs which node
 * @param rollout the agent DaemonSet's rollout; empty while the DaemonSet does not exist
 * @param nodeStates node name → its NumaNodeState status; nodes the policy does not govern are ignored
 * @param configHash the hash of the configuration the operator rendered for the policy (opaque here)
 */
public record Observation(
        NumaResourcePolicy policy,
        Assignment assignment,
        Optional<Rollout> rollout,
        Map<String, NumaNodeStateStatus> nodeStates,
        String configHash) {

    public Observation {
        Objects.requireNonNull(policy, "policy");
        Objects.requireNonNull(assignment, "assignment");
        Objects.requireNonNull(rollout, "rollout");
        Objects.requireNonNull(configHash, "configHash");
        nodeStates = Collections.unmodifiableMap(new TreeMap<>(nodeStates));
    }

    /** Node name → status of the NumaNodeStates given (those without a status are left out: nothing reported). */
    public static Map<String, NumaNodeStateStatus> byNode(Collection<NumaNodeState> states) {
        Map<String, NumaNodeStateStatus> out = new TreeMap<>();
        for (NumaNodeState s : states) {
            if (s.getStatus() != null) {
                out.put(s.getMetadata().getName(), s.getStatus());
            }
        }
        return out;
    }
}
