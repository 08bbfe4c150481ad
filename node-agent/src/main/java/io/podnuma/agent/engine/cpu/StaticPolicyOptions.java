package io.podnuma.agent.engine.cpu;

import io.podnuma.agent.engine.machine.CpuTopology;
import java.util.Map;
import java.util.Set;

/**
 * The static policy's options, named and combined as upstream ({@code cpuManagerPolicyOptions}).
 *
 * @param fullPcpusOnly {@code full-pcpus-only}: whole physical cores only
 * @param distributeCpusAcrossNuma {@code distribute-cpus-across-numa}: split evenly over NUMA nodes
 * @param alignBySocket {@code align-by-socket}: the alignment boundary is the socket
 * @param distributeCpusAcrossCores {@code distribute-cpus-across-cores}: one thread per core first
 * @param strictCpuReservation {@code strict-cpu-reservation}: reserved CPUs leave the shared pool
 * @param preferAlignByUncoreCache {@code prefer-align-cpus-by-uncorecache}: best-effort L3 alignment
 */
public record StaticPolicyOptions(
        boolean fullPcpusOnly,
        boolean distributeCpusAcrossNuma,
        boolean alignBySocket,
        boolean distributeCpusAcrossCores,
        boolean strictCpuReservation,
        boolean preferAlignByUncoreCache) {

    public static final String FULL_PCPUS_ONLY = "full-pcpus-only";
    public static final String DISTRIBUTE_CPUS_ACROSS_NUMA = "distribute-cpus-across-numa";
    public static final String ALIGN_BY_SOCKET = "align-by-socket";
    public static final String DISTRIBUTE_CPUS_ACROSS_CORES = "distribute-cpus-across-cores";
    public static final String STRICT_CPU_RESERVATION = "strict-cpu-reservation";
    public static final String PREFER_ALIGN_CPUS_BY_UNCORECACHE = "prefer-align-cpus-by-uncorecache";

    /** Every option name, in upstream's order. */
    public static final Set<String> NAMES = Set.of(
            FULL_PCPUS_ONLY,
            DISTRIBUTE_CPUS_ACROSS_NUMA,
            ALIGN_BY_SOCKET,
            DISTRIBUTE_CPUS_ACROSS_CORES,
            STRICT_CPU_RESERVATION,
            PREFER_ALIGN_CPUS_BY_UNCORECACHE);

    public static final StaticPolicyOptions NONE = new StaticPolicyOptions(false, false, false, false, false, false);

    /** The combinations upstream refuses, checked on construction. */
    public StaticPolicyOptions {
        conflict(fullPcpusOnly, FULL_PCPUS_ONLY, distributeCpusAcrossCores, DISTRIBUTE_CPUS_ACROSS_CORES);
        conflict(
                distributeCpusAcrossNuma,
                DISTRIBUTE_CPUS_ACROSS_NUMA,
                distributeCpusAcrossCores,
                DISTRIBUTE_CPUS_ACROSS_CORES);
        conflict(
                preferAlignByUncoreCache,
                PREFER_ALIGN_CPUS_BY_UNCORECACHE,
                distributeCpusAcrossCores,
                DISTRIBUTE_CPUS_ACROSS_CORES);
        conflict(
                preferAlignByUncoreCache,
                PREFER_ALIGN_CPUS_BY_UNCORECACHE,
                distributeCpusAcrossNuma,
                DISTRIBUTE_CPUS_ACROSS_NUMA);
    }

    private static void conflict(boolean a, String aName, boolean b, String bName) {
        if (a && b) {
            throw new InvalidCpuPolicyException(
                    "static policy options " + aName + " and " + bName + " can not be used at the same time");
        }
    }

    /**
     * Reads options as the kubelet does: each value a Go boolean ({@code true}, {@code False}, {@code 1}, ...).
     *
     * @throws InvalidCpuPolicyException naming the unknown option or the bad value
     */
    public static StaticPolicyOptions parse(Map<String, String> options) {
        boolean[] v = new boolean[6];
        for (Map.Entry<String, String> e : options.entrySet()) {
            int index = switch (e.getKey()) {
                case FULL_PCPUS_ONLY -> 0;
                case DISTRIBUTE_CPUS_ACROSS_NUMA -> 1;
                case ALIGN_BY_SOCKET -> 2;
                case DISTRIBUTE_CPUS_ACROSS_CORES -> 3;
                case STRICT_CPU_RESERVATION -> 4;
                case PREFER_ALIGN_CPUS_BY_UNCORECACHE -> 5;
                default ->
                    throw new InvalidCpuPolicyException(
                            "unsupported cpumanager option: \"" + e.getKey() + "\" (" + e.getValue() + "); allowed: "
                                    + String.join(", ", NAMES.stream().sorted().toList()));
            };
            v[index] = parseBool(e.getKey(), e.getValue());
        }
        return new StaticPolicyOptions(v[0], v[1], v[2], v[3], v[4], v[5]);
    }

    /** Go's {@code strconv.ParseBool}: exactly these spellings, no trimming. */
    private static boolean parseBool(String name, String value) {
        return switch (value == null ? "" : value) {
            case "1", "t", "T", "true", "TRUE", "True" -> true;
            case "0", "f", "F", "false", "FALSE", "False" -> false;
            default ->
                throw new InvalidCpuPolicyException("bad value for option \"" + name + "\": \"" + value
                        + "\" is not a boolean (allowed: true, false, 1, 0, t, f, in lower, upper or title case)");
        };
    }

    /**
     * The checks that need the machine and the topology manager policy.
     *
     * @param topologyManagerPolicy {@code none}, {@code best-effort}, {@code restricted} or
     *     {@code single-numa-node}
     */
    public void validate(CpuTopology topo, String topologyManagerPolicy) {
        if (alignBySocket) {
            if ("single-numa-node".equals(topologyManagerPolicy)) {
                throw new InvalidCpuPolicyException("Topology manager single-numa-node policy is incompatible with"
                        + " CPUManager " + ALIGN_BY_SOCKET + " policy option");
            }
            if (topo.numSockets() > topo.numNumaNodes()) {
                throw new InvalidCpuPolicyException("Align by socket is not compatible with hardware where number of"
                        + " sockets (" + topo.numSockets() + ") are more than number of NUMA ("
                        + topo.numNumaNodes() + ")");
            }
        }
    }
}
