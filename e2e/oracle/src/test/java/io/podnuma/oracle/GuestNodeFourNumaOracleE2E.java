package io.podnuma.oracle;

import io.podnuma.controlplane.GuestTopology;

/** {@link GuestNodeOracleE2E} on four NUMA nodes, two per socket (16 CPUs, 512 MiB per node). */
class GuestNodeFourNumaOracleE2E extends GuestNodeOracleE2E {

    @Override
    GuestTopology topology() {
        return GuestTopology.FOUR_NODES;
    }
}
