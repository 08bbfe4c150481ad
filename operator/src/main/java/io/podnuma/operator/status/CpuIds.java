package io.podnuma.operator.status;

import java.util.ArrayList;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;

/** CPU ids in the Linux list syntax ({@code 0-3,8}), as the policy and the NumaNodeState write them. */
final class CpuIds {

    private CpuIds() {}

    /** The ids of a list; an empty or null text is no CPU. A malformed list is refused (CEL admits none). */
    static SortedSet<Integer> parse(String list) {
        SortedSet<Integer> ids = new TreeSet<>();
        if (list == null || list.isBlank()) {
            return ids;
        }
        for (String part : list.strip().split(",")) {
            int dash = part.indexOf('-');
            int from = Integer.parseInt(dash < 0 ? part : part.substring(0, dash));
            int to = dash < 0 ? from : Integer.parseInt(part.substring(dash + 1));
            if (to < from) {
                throw new IllegalArgumentException("CPU range " + part + " runs backwards");
            }
            for (int id = from; id <= to; id++) {
                ids.add(id);
            }
        }
        return ids;
    }

    /** The ids as a list with ranges: {@code [0,1,2,8]} → {@code 0-2,8}. */
    static String format(SortedSet<Integer> ids) {
        List<String> parts = new ArrayList<>();
        Integer start = null;
        Integer prev = null;
        for (int id : ids) {
            if (prev != null && id == prev + 1) {
                prev = id;
                continue;
            }
            if (start != null) {
                parts.add(start.equals(prev) ? Integer.toString(start) : start + "-" + prev);
            }
            start = id;
            prev = id;
        }
        if (start != null) {
            parts.add(start.equals(prev) ? Integer.toString(start) : start + "-" + prev);
        }
        return String.join(",", parts);
    }
}
