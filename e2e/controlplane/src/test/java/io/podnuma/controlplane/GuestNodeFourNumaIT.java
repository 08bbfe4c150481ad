package io.podnuma.controlplane;

/** {@link GuestNodeIT} on four NUMA nodes (two per socket, as sub-NUMA clustering makes them). */
class GuestNodeFourNumaIT extends GuestNodeIT {

    @Override
    GuestTopology topology() {
        return GuestTopology.FOUR_NODES;
    }
}
