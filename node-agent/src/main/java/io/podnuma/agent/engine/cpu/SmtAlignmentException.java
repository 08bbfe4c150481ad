package io.podnuma.agent.engine.cpu;

/**
 * {@code full-pcpus-only} refused a request: either it is not a multiple of the threads per core, or
 * fewer whole free cores remain than it needs. Rejected pods carry reason {@value #REASON}.
 */
public final class SmtAlignmentException extends CpuAllocationException {

    private static final long serialVersionUID = 1L;

    public static final String REASON = "SMTAlignmentError";

    private final int requestedCpus;
    private final int cpusPerCore;
    private final int availablePhysicalCpus;
    private final boolean causedByPhysicalCpus;

    private SmtAlignmentException(
            int requestedCpus, int cpusPerCore, int availablePhysicalCpus, boolean causedByPhysicalCpus, String msg) {
        super(REASON, msg);
        this.requestedCpus = requestedCpus;
        this.cpusPerCore = cpusPerCore;
        this.availablePhysicalCpus = availablePhysicalCpus;
        this.causedByPhysicalCpus = causedByPhysicalCpus;
    }

    static SmtAlignmentException notMultipleOfCore(int requested, int cpusPerCore) {
        return new SmtAlignmentException(
                requested,
                cpusPerCore,
                -1,
                false,
                "SMT Alignment Error: requested " + requested + " cpus not multiple cpus per core = " + cpusPerCore);
    }

    static SmtAlignmentException notEnoughPhysicalCpus(int requested, int cpusPerCore, int available) {
        return new SmtAlignmentException(
                requested,
                cpusPerCore,
                available,
                true,
                "SMT Alignment Error: not enough free physical CPUs: available physical CPUs = " + available
                        + ", requested CPUs = " + requested + ", CPUs per core = " + cpusPerCore);
    }

    public int requestedCpus() {
        return requestedCpus;
    }

    public int cpusPerCore() {
        return cpusPerCore;
    }

    /** CPUs on whole free cores, or -1 when the request failed the multiple-of-core test. */
    public int availablePhysicalCpus() {
        return availablePhysicalCpus;
    }

    public boolean causedByPhysicalCpus() {
        return causedByPhysicalCpus;
    }
}
