package io.podnuma.operator.election;

/** The one Lease an elector competes for. Implementations do not throw: a failure is a {@code Failed} result. */
public interface LeasePort {

    LeaseRead read();

    /** Creates the Lease; a Lease that exists already is a {@link LeaseWrite.Conflict}. */
    LeaseWrite create(LeaseRecord record);

    /** Replaces the Lease's spec only while it is still at {@code expectedVersion} (else a Conflict). */
    LeaseWrite update(LeaseRecord record, String expectedVersion);
}
