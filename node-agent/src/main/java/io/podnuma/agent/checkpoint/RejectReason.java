package io.podnuma.agent.checkpoint;

/** Why a checkpoint file was not used (and moved aside). Each one is a distinct Event reason for the agent. */
public enum RejectReason {
    /** The file exists but cannot be read (permissions, I/O error, or larger than any checkpoint can be). */
    UNREADABLE("CheckpointUnreadable"),
    /** The file ends early: empty, or cut inside the JSON (a write that never finished outside our protocol). */
    TRUNCATED("CheckpointTruncated"),
    /** Not JSON, or JSON that is not a checkpoint envelope (wrong kind, missing or mistyped fields). */
    MALFORMED("CheckpointMalformed"),
    /** A format version this agent cannot read (written by a newer agent, or not a version at all). */
    UNSUPPORTED_VERSION("CheckpointUnsupportedVersion"),
    /** The content does not match its checksum: the bytes changed after they were written. */
    CHECKSUM_MISMATCH("CheckpointChecksumMismatch"),
    /** Written on a different CPU layout (CPUs went offline, BIOS changed SNC, the disk moved to a new machine). */
    TOPOLOGY_MISMATCH("CheckpointTopologyMismatch"),
    /** The envelope is fine but the node state inside cannot be decoded. */
    BAD_STATE("CheckpointBadState"),
    /** The node state decodes but does not fit this machine and configuration (overlaps, offline CPUs, ...). */
    INCONSISTENT_STATE("CheckpointInconsistentState");

    private final String eventReason;

    RejectReason(String eventReason) {
        this.eventReason = eventReason;
    }

    /** The UpperCamelCase reason for a Kubernetes Event. */
    public String eventReason() {
        return eventReason;
    }
}
