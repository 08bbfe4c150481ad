package io.podnuma.operator.render;

import io.fabric8.kubernetes.api.model.Affinity;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * What a cluster adds to the agent pods beyond the operator's own rendering: environment variables (after the
 * operator's), arguments after {@code run --config <file>}, and an affinity (beside the node selector that puts the
 * agent on its policy's nodes). The variables the operator sets, and every {@code PODNUMA_} one (the agent's settings
 * come from its config file, which the operator writes), are refused, so an extra one cannot contradict the rendering.
 *
 * @param env name and plain value of each extra variable, in order (no {@code valueFrom}: no Secret reaches the agent
 *     this way, as the DaemonSet admission policy requires)
 * @param args extra arguments of {@code node-agent run}
 * @param affinity the agent pods' affinity; empty: none
 */
public record AgentExtras(List<Env> env, List<String> args, Optional<Affinity> affinity) {

    /** Nothing added: what the operator renders by itself. */
    public static final AgentExtras NONE = new AgentExtras(List.of(), List.of(), Optional.empty());

    /** The variables {@link AgentRender} sets itself (the API server's pair only with the apiServer setting). */
    public static final List<String> RESERVED_ENV =
            List.of("PODNUMA_NODE_NAME", "KUBERNETES_SERVICE_HOST", "KUBERNETES_SERVICE_PORT");

    public static final String RESERVED_ENV_PREFIX = "PODNUMA_";

    public static final String ENV_NAME_RULE = "a name of printable ASCII characters without '=', not "
            + String.join(", ", RESERVED_ENV) + " and not starting with " + RESERVED_ENV_PREFIX
            + " (the agent's settings are in the config file the operator writes)";

    /** One extra variable with a plain value. */
    public record Env(String name, String value) {
        public Env {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(value, "value");
        }
    }

    public AgentExtras {
        env = List.copyOf(env);
        args = List.copyOf(args);
        Objects.requireNonNull(affinity, "affinity");
        List<String> problems = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (Env e : env) {
            envNameProblem(e.name()).ifPresent(p -> problems.add(e.name() + ": allowed " + p));
            if (!seen.add(e.name())) {
                problems.add(e.name() + ": set twice");
            }
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("extra env: " + String.join("; ", problems));
        }
    }

    /** Empty when {@code name} may be an extra variable's, else {@link #ENV_NAME_RULE}. */
    public static Optional<String> envNameProblem(String name) {
        boolean printable = !name.isEmpty() && name.chars().allMatch(c -> c > 0x20 && c < 0x7f && c != '=');
        if (!printable || RESERVED_ENV.contains(name) || name.startsWith(RESERVED_ENV_PREFIX)) {
            return Optional.of(ENV_NAME_RULE);
        }
        return Optional.empty();
    }
}
