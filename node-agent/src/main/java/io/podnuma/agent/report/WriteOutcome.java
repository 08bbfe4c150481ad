package io.podnuma.agent.report;

/** What one {@link NodeStateWriter#write} did. */
public enum WriteOutcome {
    /** The object was applied to the API server. */
    WRITTEN,
    /** The rendered object equals the last one written: no request was made. */
    UNCHANGED
}
