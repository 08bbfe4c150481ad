package io.podnuma.operator.election;

/** What reading the Lease gave. */
public sealed interface LeaseRead {

    record Found(StoredLease lease) implements LeaseRead {}

    /** No such Lease (never created, or deleted). */
    record Absent() implements LeaseRead {}

    /** The API server did not answer or refused: nothing is known. */
    record Failed(String why) implements LeaseRead {}
}
