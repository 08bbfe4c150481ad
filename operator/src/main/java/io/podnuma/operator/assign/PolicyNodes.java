package io.podnuma.operator.assign;

import java.util.Collections;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One policy's side of the assignment.
 *
 * @param governed the nodes it won, sorted by name
 * @param lost the nodes it selects that another policy won, node → winner, sorted by node
 */
public record PolicyNodes(List<String> governed, SortedMap<String, String> lost) {

    public static final PolicyNodes NONE = new PolicyNodes(List.of(), new TreeMap<>());

    public PolicyNodes {
        governed = List.copyOf(governed);
        lost = Collections.unmodifiableSortedMap(new TreeMap<>(lost));
    }

    /** The nodes the policy selects, won or lost. */
    public int selected() {
        return governed.size() + lost.size();
    }
}
