package io.podnuma.operator.controller;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.podnuma.crds.v1alpha1.NumaResourcePolicyStatus;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * {@code podnuma_operator_nodes{policy,state}}: a policy's node counters as gauges, one series per policy and state
 * (no per-node label, so the series stay few at 5,000 nodes). A deleted policy's series are removed.
 */
public final class PolicyNodeGauges implements Consumer<PolicyReconciler.PolicyOutcome> {

    public static final String NAME = "podnuma.operator.nodes";

    /** The node states a gauge is kept for. */
    public enum NodeState {
        MATCHED("matched", NumaResourcePolicyStatus::nodesMatched),
        READY("ready", NumaResourcePolicyStatus::nodesReady),
        UPDATED("updated", NumaResourcePolicyStatus::nodesUpdated),
        DEGRADED("degraded", NumaResourcePolicyStatus::nodesDegraded);

        private final String wire;
        private final Function<NumaResourcePolicyStatus, Integer> count;

        NodeState(String wire, Function<NumaResourcePolicyStatus, Integer> count) {
            this.wire = wire;
            this.count = count;
        }

        public String wire() {
            return wire;
        }
    }

    private final MeterRegistry registry;
    private final Map<String, Map<NodeState, AtomicInteger>> values = new ConcurrentHashMap<>();
    private final Map<String, Map<NodeState, Gauge>> gauges = new ConcurrentHashMap<>();

    public PolicyNodeGauges(MeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void accept(PolicyReconciler.PolicyOutcome outcome) {
        String policy = outcome.policy();
        if (outcome.status().isEmpty()) {
            Map<NodeState, Gauge> gone = gauges.remove(policy);
            if (gone != null) {
                gone.values().forEach(registry::remove);
            }
            values.remove(policy);
            return;
        }
        NumaResourcePolicyStatus status = outcome.status().get();
        Map<NodeState, AtomicInteger> v = values.computeIfAbsent(policy, p -> {
            Map<NodeState, AtomicInteger> m = new EnumMap<>(NodeState.class);
            Map<NodeState, Gauge> g = new EnumMap<>(NodeState.class);
            for (NodeState s : NodeState.values()) {
                AtomicInteger value = new AtomicInteger();
                m.put(s, value);
                g.put(
                        s,
                        Gauge.builder(NAME, value, AtomicInteger::get)
                                .description("nodes of a NumaResourcePolicy, by state")
                                .tag("policy", p)
                                .tag("state", s.wire())
                                .register(registry));
            }
            gauges.put(p, g);
            return m;
        });
        for (NodeState s : NodeState.values()) {
            v.get(s).set(Objects.requireNonNullElse(s.count.apply(status), 0));
        }
    }
}
