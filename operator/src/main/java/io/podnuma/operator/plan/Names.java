package io.podnuma.operator.plan;

import java.util.Collection;
import java.util.List;

/** Node lists in Event messages: the first few, then how many more, so a message stays short at 5,000 nodes. */
final class Names {

    static final int SHOWN = 5;

    private Names() {}

    static String of(Collection<String> names) {
        List<String> sorted = names.stream().sorted().toList();
        if (sorted.size() <= SHOWN) {
            return String.join(", ", sorted);
        }
        return String.join(", ", sorted.subList(0, SHOWN)) + " and " + (sorted.size() - SHOWN) + " more";
    }

    static String nodes(int n) {
        return n == 1 ? "1 node" : n + " nodes";
    }
}
