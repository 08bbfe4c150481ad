package io.podnuma.operator.election;

/** What writing the Lease gave. */
public sealed interface LeaseWrite {

    /** Written; as stored now. */
    record Stored(StoredLease lease) implements LeaseWrite {}

    /** Somebody wrote first (409: another resourceVersion, or the Lease exists already): this attempt lost. */
    record Conflict(String why) implements LeaseWrite {}

    /** The API server did not answer or refused: the write may or may not have happened. */
    record Failed(String why) implements LeaseWrite {}
}
