package io.podnuma.operator.status;

import java.util.List;

/** Lists in messages: the first few items, then how many more, so a message stays readable at 5,000 nodes. */
final class Listing {

    static final int SHOWN = 5;

    private Listing() {}

    static String of(List<String> items) {
        if (items.size() <= SHOWN) {
            return String.join(", ", items);
        }
        return String.join(", ", items.subList(0, SHOWN)) + " and " + (items.size() - SHOWN) + " more";
    }

    /** At most {@code max} characters, an ellipsis marking a cut. */
    static String cut(String text, int max) {
        return text.length() <= max ? text : text.substring(0, max - 1) + "…";
    }

    static String nodes(int n) {
        return n == 1 ? "1 node" : n + " nodes";
    }
}
