package io.podnuma.operator.election;

import java.util.Objects;

/**
 * A Lease as the API server stored it. The resourceVersion changes with every write, so a replica that sees the same
 * one twice knows nobody wrote in between; a write that names it fails (409) when somebody did.
 */
public record StoredLease(LeaseRecord record, String resourceVersion) {

    public StoredLease {
        Objects.requireNonNull(record, "record");
        Objects.requireNonNull(resourceVersion, "resourceVersion");
    }
}
