package io.podnuma.demo.pinning;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * A set of CPU (or memory node) ids in the Linux list syntax ({@code 0-3,8}), the form the kernel, cgroup files and
 * podnuma all print: parsed so that two spellings of one set compare equal.
 */
public record CpuList(SortedSet<Integer> ids) {

    public CpuList {
        ids = Collections.unmodifiableSortedSet(new TreeSet<>(ids));
    }

    public static CpuList of(Integer... ids) {
        return new CpuList(new TreeSet<>(List.of(ids)));
    }

    /**
     * Parses {@code 0-3,8}; blank is the empty set.
     *
     * @throws IllegalArgumentException naming the text and the part that is not an id or a range
     */
    public static CpuList parse(String text) {
        TreeSet<Integer> ids = new TreeSet<>();
        String t = text == null ? "" : text.strip();
        if (t.isEmpty()) {
            return new CpuList(ids);
        }
        for (String part : t.split(",")) {
            try {
                int dash = part.indexOf('-');
                int from = Integer.parseInt(
                        dash < 0 ? part.strip() : part.substring(0, dash).strip());
                int to = dash < 0
                        ? from
                        : Integer.parseInt(part.substring(dash + 1).strip());
                if (from < 0 || to < from) {
                    throw new NumberFormatException("empty or negative range");
                }
                for (int i = from; i <= to; i++) {
                    ids.add(i);
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("CPU list \"" + text + "\": \"" + part
                        + "\" is neither an id nor a range like 2-5 (" + e.getMessage() + ")");
            }
        }
        return new CpuList(ids);
    }

    public int size() {
        return ids.size();
    }

    public boolean isEmpty() {
        return ids.isEmpty();
    }

    public boolean contains(int id) {
        return ids.contains(id);
    }

    public CpuList minus(CpuList other) {
        TreeSet<Integer> left = new TreeSet<>(ids);
        left.removeAll(other.ids);
        return new CpuList(left);
    }

    /** The Linux list syntax, ranges collapsed: {@code 0-3,8}. */
    @Override
    public String toString() {
        List<String> parts = new ArrayList<>();
        Integer start = null;
        Integer prev = null;
        for (int id : ids) {
            if (prev != null && id == prev + 1) {
                prev = id;
                continue;
            }
            if (start != null) {
                parts.add(start.equals(prev) ? start.toString() : start + "-" + prev);
            }
            start = id;
            prev = id;
        }
        if (start != null) {
            parts.add(start.equals(prev) ? start.toString() : start + "-" + prev);
        }
        return String.join(",", parts);
    }
}
