package io.podnuma.agent.engine.cpu.differential;

import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The allow-list: every way the Java engine deliberately differs from the kubelet v1.37.2, by name
 * and reason. A case whose differences are all explained by one entry counts as an intended
 * improvement, not as a disagreement; anything else fails the differential test.
 */
final class KnownDifferences {

    /** One intended difference. */
    record Entry(String name, String reason, Predicate<Comparison> explains) {}

    static final List<Entry> ALL = List.of(
            new Entry(
                    "kubelet-hangs-in-distributed-search",
                    "with distribute-cpus-across-numa (and full-pcpus-only, or align-by-socket) the kubelet's"
                            + " takeByTopologyNUMADistributed can loop forever: its remainder search accepts a"
                            + " NUMA subset whose free CPUs add up to the remainder although it holds too few"
                            + " whole CPU groups, and with align-by-socket a combination with no feasible"
                            + " remainder subset can win; placing the remainder then never finishes. podnuma"
                            + " counts whole groups and stops a pass that places nothing. Everything before"
                            + " the hang must still agree.",
                    c -> c.kubelet().hang() && c.differences().isEmpty()),
            new Entry(
                    "reworded-configuration-refusals",
                    "both refuse the configuration; podnuma's message says \"Topology\" (upstream: \"Topolgy\")"
                            + " and gives the socket and NUMA counts",
                    c -> c.java().createError() != null
                            && c.kubelet().createError() != null
                            && c.differences().stream().allMatch(d -> d.startsWith("refusal message:"))
                            && (c.kubelet().createError().startsWith("Topolgy manager single-numa-node policy")
                                    || c.kubelet()
                                            .createError()
                                            .startsWith("Align by socket is not compatible with hardware"))));

    private KnownDifferences() {}

    /** The entry that explains all of a comparison's differences, if any. */
    static Optional<Entry> explaining(Comparison c) {
        return ALL.stream().filter(e -> e.explains().test(c)).findFirst();
    }
}
