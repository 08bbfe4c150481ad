package io.podnuma.agent.report;

/** What one write of a rendered object did. */
public enum WriteOutcome {
    /** The object was applied to the API server. */
    WRITTEN,
    /** The rendered object equals the last one written: no request was made. */
    UNCHANGED,
    /**
     * The target cannot take the object now (e.g. its CRD is not installed) and the writer already reported that: no
     * request was made.
     */
    SKIPPED
}
