package io.podnuma.crds.v1alpha1;

import java.util.List;
import java.util.Map;

/**
 * Null-preserving immutable copies for the API records: an absent list stays absent (omitted on the wire), a present
 * one can no longer be changed by whoever passed it in.
 */
public final class ImmutableCopies {

    private ImmutableCopies() {}

    public static <T> List<T> list(List<T> list) {
        return list == null ? null : List.copyOf(list);
    }

    public static <K, V> Map<K, V> map(Map<K, V> map) {
        return map == null ? null : Map.copyOf(map);
    }
}
