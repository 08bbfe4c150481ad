package io.podnuma.testkit.soak;

import io.podnuma.testkit.cpu.CpuList;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What the sampler read at one instant.
 *
 * @param at when the sample was taken
 * @param containers every container cgroup of the node's pods with its cpuset and processes' affinities
 * @param exclusive the exclusive CPUs each container must run on exactly, by {@code pod/container}, as the agent's
 *     checkpoint gives them (the expectation; containers without exclusive CPUs are absent)
 * @param writableSince since when the agent has been able to pin (ready, cgroup writes not failed by a fault); empty
 *     while it cannot (down, starting, writes failing): the window does not run then
 * @param livePods UIDs of the pods that exist and are not finished at this instant
 * @param records for each record read at this sample, the UIDs of the pods it holds an allocation for (a record left
 *     out was not read this time)
 * @param mustHold UIDs of pods whose allocation every record must keep (pods admitted and not deleted)
 */
public record Snapshot(
        Instant at,
        List<ContainerSample> containers,
        Map<String, CpuList> exclusive,
        Optional<Instant> writableSince,
        Set<String> livePods,
        Map<Record, Set<String>> records,
        Set<String> mustHold) {

    public Snapshot {
        containers = List.copyOf(containers);
        exclusive = Map.copyOf(exclusive);
        livePods = Set.copyOf(livePods);
        records = records.isEmpty() ? Map.of() : Map.copyOf(new EnumMap<>(records));
        mustHold = Set.copyOf(mustHold);
    }
}
