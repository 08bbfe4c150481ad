package io.podnuma.agent.runtime.pin;

import io.podnuma.agent.cgroup.CgroupPath;
import io.podnuma.agent.engine.cpuset.CpuSet;
import io.podnuma.agent.runtime.core.Pin;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SequencedMap;
import java.util.Set;

/**
 * The order of cpuset writes across containers, and the books that make it safe; no I/O (each step is performed by
 * the caller's {@link Performer}, whose outcome the plan books before it decides the next step).
 *
 * <p>Exclusivity on the host: when CPUs move, every container first loses the CPUs it must give up, then containers
 * gain theirs; a container never gains a CPU that another container still holds but should not (a failed write: its
 * CPUs stay stale until it has given them up), so no CPU is exclusive to two containers even when writes fail. The
 * one exception is containers swapping CPUs: no order avoids an overlap there, and what is left is written as it is.
 *
 * <p>A plan is used once, on the loop thread; its books ({@link #applied}, {@link #decided}, {@link #stale},
 * {@link #gone}) are copied back by the caller.
 */
public final class PinPlan {

    /** Whether CPUs are kept apart ({@link #KEEP_APART}) or every container gets everything back. */
    public enum Mode {
        KEEP_APART,
        /** The node leaves podnuma: nothing is exclusive and nothing is kept apart. */
        RESTORE
    }

    /** What a write did on the host. */
    public enum Outcome {
        WRITTEN,
        /** The cpuset was written, but turning off the CPU quota failed. */
        QUOTA_FAILED,
        /** Nothing was written. */
        FAILED,
        /** The container cgroup is gone. */
        GONE
    }

    /** Performs the steps of a plan on the host. */
    public interface Performer {
        /** {@code cpus} are left out of a step for now: another container could not give them up yet. */
        void blocked(CgroupPath path, CpuSet cpus);

        Outcome perform(PinStep step);
    }

    private final Map<CgroupPath, Optional<Pin>> applied;
    private final Set<CgroupPath> decided;
    private final Map<CgroupPath, CpuSet> stale;
    private final Set<CgroupPath> gone = new HashSet<>();
    private final CpuSet sharedPool;
    private final Mode mode;
    /** Per container, CPUs the runtime may still write into it though it must not keep them (an update in flight). */
    private final Map<CgroupPath, CpuSet> pending;

    /**
     * @param applied every container on the host and its cpuset as last read or written (empty: not known)
     * @param decided the containers whose cpuset the agent has decided; the others hold what they inherited
     * @param stale per container, the CPUs it still holds but must give up
     * @param sharedPool the node shared pool, whose CPUs many containers may hold at once
     */
    public PinPlan(
            Map<CgroupPath, Optional<Pin>> applied,
            Set<CgroupPath> decided,
            Map<CgroupPath, CpuSet> stale,
            CpuSet sharedPool,
            Mode mode) {
        this(applied, decided, stale, Map.of(), sharedPool, mode);
    }

    /**
     * @param pending per container, CPUs the runtime may still write into it (an update it has not confirmed) but
     *     that it must not keep: like stale CPUs, nobody else gains them meanwhile; unlike them, no write of ours
     *     clears them (only the runtime's answer does)
     */
    public PinPlan(
            Map<CgroupPath, Optional<Pin>> applied,
            Set<CgroupPath> decided,
            Map<CgroupPath, CpuSet> stale,
            Map<CgroupPath, CpuSet> pending,
            CpuSet sharedPool,
            Mode mode) {
        this.applied = new HashMap<>(applied);
        this.decided = new HashSet<>(decided);
        this.stale = new HashMap<>(stale);
        this.pending = Map.copyOf(pending);
        this.sharedPool = sharedPool;
        this.mode = mode;
    }

    /**
     * Every container to its wanted cpuset: first each one gives up what it must, then containers gain theirs in
     * passes, then what is left is written as it is.
     *
     * @param wanted per container, in the order to write them
     */
    public void all(SequencedMap<CgroupPath, Pin> wanted, Performer performer) {
        List<CgroupPath> order = new ArrayList<>(wanted.keySet());
        for (CgroupPath path : order) {
            Pin target = wanted.get(path);
            Optional<Pin> now = current(path);
            if (now.isPresent() && !now.get().equals(target)) {
                Pin narrowed = now.get().narrowedTo(target);
                if (!narrowed.equals(now.get())) {
                    write(path, narrowed, target, PinStep.Kind.GIVE_UP, performer);
                }
            }
        }
        // Then containers gain. A container whose CPUs all change could not give any up above (a cpuset is never
        // empty): whoever gains what it held outside the shared pool waits until it has moved. Passes until nothing
        // is left or nothing can go; what is left then (containers swapping exclusive CPUs) is written as it is.
        List<CgroupPath> pending = new ArrayList<>(order);
        boolean progress = true;
        while (!pending.isEmpty() && progress) {
            progress = false;
            CpuSet.Builder leavingBuilder = CpuSet.builder();
            for (CgroupPath path : pending) {
                current(path)
                        .ifPresent(pin -> leavingBuilder.addAll(
                                pin.cpus().difference(wanted.get(path).cpus())));
            }
            // CPUs that stay in the node shared pool may be held by many at once: only the others must wait.
            CpuSet leaving = leavingBuilder.build().difference(sharedPool);
            for (CgroupPath path : List.copyOf(pending)) {
                Pin target = wanted.get(path);
                boolean present = present(path);
                CpuSet gained = current(path)
                        .map(pin -> target.cpus().difference(pin.cpus()))
                        .orElse(CpuSet.empty());
                if (!present || !gained.intersects(leaving)) {
                    pending.remove(path);
                    progress = true;
                    if (present) {
                        write(path, target, target, PinStep.Kind.GAIN, performer);
                    }
                }
            }
        }
        for (CgroupPath path : pending) {
            if (present(path)) {
                write(path, wanted.get(path), wanted.get(path), PinStep.Kind.SWAP, performer);
            }
        }
    }

    /**
     * One container to {@code pin}, outside the passes.
     *
     * @return whether the container now has {@code pin}
     */
    public boolean one(CgroupPath path, Pin pin, Performer performer) {
        return write(path, pin, pin, PinStep.Kind.SINGLE, performer);
    }

    /**
     * Writes one container's cpuset. CPUs another container still holds but must give up are left out until it has:
     * a container never shares a CPU with its previous owner, even one it started with (a new cgroup starts with all
     * its parent's CPUs).
     */
    private boolean write(CgroupPath path, Pin pin, Pin target, PinStep.Kind kind, Performer performer) {
        Optional<Pin> before = current(path);
        if (before.isPresent() && before.get().equals(pin)) {
            decided.add(path); // already what the agent wants: from now on it holds its CPUs by decision
            // CPUs it failed to give up may be wanted again (the change was undone): they keep nobody waiting.
            holds(path, pin.cpus(), target);
            return true;
        }
        CpuSet blocked = CpuSet.empty();
        if (mode == Mode.KEEP_APART) {
            for (Map.Entry<CgroupPath, CpuSet> e : stale.entrySet()) {
                if (!e.getKey().equals(path)) {
                    blocked = blocked.union(e.getValue().intersection(pin.cpus()));
                }
            }
            for (Map.Entry<CgroupPath, CpuSet> e : pending.entrySet()) {
                if (!e.getKey().equals(path)) {
                    blocked = blocked.union(e.getValue().intersection(pin.cpus()));
                }
            }
        }
        Pin writing = pin;
        if (!blocked.isEmpty()) {
            CpuSet rest = pin.cpus().difference(blocked);
            performer.blocked(path, blocked);
            if (rest.isEmpty() || before.map(a -> a.cpus().equals(rest)).orElse(false)) {
                return false;
            }
            writing = new Pin(rest, pin.mems());
        }
        Outcome outcome = performer.perform(new PinStep(path, writing, target, kind));
        switch (outcome) {
            case WRITTEN -> {
                written(path, writing, target);
                return writing == pin;
            }
            case QUOTA_FAILED -> {
                written(path, writing, target);
                failed(path, before, target);
                return false;
            }
            case FAILED -> {
                failed(path, before, target);
                return false;
            }
            case GONE -> {
                forget(path);
                return false;
            }
        }
        throw new AssertionError(outcome);
    }

    private void written(CgroupPath path, Pin pin, Pin target) {
        applied.put(path, Optional.of(pin));
        decided.add(path);
        holds(path, pin.cpus(), target);
    }

    /** The write failed: what the container held by decision and should give up stays stale. */
    private void failed(CgroupPath path, Optional<Pin> before, Pin target) {
        before.ifPresent(a -> {
            CpuSet unwanted = a.cpus().difference(target.cpus());
            if (!unwanted.isEmpty() && decided.contains(path)) {
                stale.merge(path, unwanted, CpuSet::union);
            }
        });
    }

    /** A container holds {@code cpus} by decision: of them, those outside {@code target} are stale. */
    private void holds(CgroupPath path, CpuSet cpus, Pin target) {
        CpuSet unwanted = mode == Mode.RESTORE ? CpuSet.empty() : cpus.difference(target.cpus());
        if (unwanted.isEmpty()) {
            stale.remove(path);
        } else {
            stale.put(path, unwanted);
        }
    }

    private void forget(CgroupPath path) {
        applied.remove(path);
        stale.remove(path);
        decided.remove(path);
        gone.add(path);
    }

    private boolean present(CgroupPath path) {
        return applied.containsKey(path);
    }

    private Optional<Pin> current(CgroupPath path) {
        return applied.getOrDefault(path, Optional.empty());
    }

    /** Every container still present and its cpuset now. */
    public Map<CgroupPath, Optional<Pin>> applied() {
        return Map.copyOf(applied);
    }

    public Set<CgroupPath> decided() {
        return Set.copyOf(decided);
    }

    public Map<CgroupPath, CpuSet> stale() {
        return Map.copyOf(stale);
    }

    /** The containers found gone while the plan ran. */
    public Set<CgroupPath> gone() {
        return Set.copyOf(gone);
    }

    /** The steps of {@link #all} when every write succeeds, for reading a plan without performing it. */
    public static List<PinStep> steps(
            Map<CgroupPath, Pin> applied, CpuSet sharedPool, SequencedMap<CgroupPath, Pin> wanted) {
        Map<CgroupPath, Optional<Pin>> known = new LinkedHashMap<>();
        applied.forEach((p, pin) -> known.put(p, Optional.of(pin)));
        List<PinStep> steps = new ArrayList<>();
        new PinPlan(known, applied.keySet(), Map.of(), sharedPool, Mode.KEEP_APART).all(wanted, new Performer() {
            @Override
            public void blocked(CgroupPath path, CpuSet cpus) {}

            @Override
            public Outcome perform(PinStep step) {
                steps.add(step);
                return Outcome.WRITTEN;
            }
        });
        return steps;
    }
}
