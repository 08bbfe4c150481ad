package io.podnuma.agent.runtime.pods;

import io.podnuma.agent.engine.pod.PodRef;
import io.podnuma.agent.pods.PodRecord;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The pods of the node as the agent last heard of them (by UID), those it refused, and those it has asked to evict
 * (once per pod). Owned by the loop thread.
 */
public final class PodBook {

    private final Map<String, PodRecord> records = new HashMap<>();
    private final Map<String, Refusal> refused = new TreeMap<>();
    private final Set<String> evicted = new HashSet<>();
    private final Set<String> waiting = new HashSet<>();

    /** The full list replaces what the agent knew. */
    public void listed(List<PodRecord> pods) {
        records.clear();
        for (PodRecord r : pods) {
            records.put(r.ref().uid(), r);
        }
    }

    public void put(PodRecord r) {
        records.put(r.ref().uid(), r);
    }

    public void remove(String uid) {
        records.remove(uid);
    }

    public Optional<PodRecord> get(String uid) {
        return Optional.ofNullable(records.get(uid));
    }

    /** The record of a pod, or null: for the passes over every container, where an Optional per call shows. */
    public PodRecord getOrNull(String uid) {
        return records.get(uid);
    }

    public Optional<PodRef> ref(String uid) {
        return get(uid).map(PodRecord::ref);
    }

    public Collection<PodRecord> all() {
        return records.values();
    }

    public int size() {
        return records.size();
    }

    public boolean refused(String uid) {
        return refused.containsKey(uid);
    }

    public void refuse(Refusal refusal) {
        refused.put(refusal.pod().uid(), refusal);
        waiting.remove(refusal.pod().uid());
    }

    public void admitted(String uid) {
        refused.remove(uid);
        waiting.remove(uid);
    }

    /** @return whether the pod has just begun to wait for what its decision needs: false while it still waits */
    public boolean waiting(String uid) {
        return waiting.add(uid);
    }

    /** The pods that wait for what their decision needs, by UID (a copy: asking them again may end their wait). */
    public List<String> waitingPods() {
        return List.copyOf(waiting);
    }

    /** @return whether the pod is to be evicted now: false when it was asked for already */
    public boolean evicting(String uid) {
        return evicted.add(uid);
    }

    /** The pod has ended or is gone: it is neither refused, evicted nor waiting any more. */
    public void ended(String uid) {
        refused.remove(uid);
        evicted.remove(uid);
        waiting.remove(uid);
    }
}
