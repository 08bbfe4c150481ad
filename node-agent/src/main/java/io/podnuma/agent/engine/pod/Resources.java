package io.podnuma.agent.engine.pod;

/**
 * Requests and limits of a container or of a whole pod ({@code pod.spec.resources}).
 *
 * <p>Requests are read as the API server stores them: an entry with a limit but no request takes the limit
 * as its request ({@link #effectiveRequests()}), so manifests read from files behave like admitted pods.
 */
public record Resources(ResourceList requests, ResourceList limits) {

    public static final Resources NONE = new Resources(ResourceList.EMPTY, ResourceList.EMPTY);

    public Resources {
        requests = requests == null ? ResourceList.EMPTY : requests;
        limits = limits == null ? ResourceList.EMPTY : limits;
    }

    /** Requests equal to limits: what a Guaranteed container or pod budget states. */
    public static Resources guaranteed(ResourceList both) {
        return new Resources(both, both);
    }

    public ResourceList effectiveRequests() {
        return requests.orElse(limits);
    }

    /** Whether CPU or memory is requested or limited (the test for "pod-level resources are set"). */
    public boolean hasCpuOrMemory() {
        return requests.hasCpuOrMemory() || limits.hasCpuOrMemory();
    }

    /**
     * Both CPU and memory have a non-zero limit and the (effective) request equals it: the Guaranteed test
     * for one container or one pod budget.
     */
    public boolean guaranteedCpuAndMemory() {
        ResourceList req = effectiveRequests();
        return limits.cpuMillis() != null
                && limits.cpuMillis() > 0
                && limits.cpuMillis().equals(req.cpuMillis())
                && limits.memoryBytes().isPresent()
                && limits.memoryBytes().getAsLong() > 0
                && limits.memoryBytes().equals(req.memoryBytes());
    }

    @Override
    public String toString() {
        return "requests=" + requests + " limits=" + limits;
    }
}
