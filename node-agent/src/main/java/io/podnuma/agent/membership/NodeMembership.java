package io.podnuma.agent.membership;

/** The agent's node as podnuma's member: asked at shutdown, when leaving means giving everything back. */
public interface NodeMembership {

    /** The answer now; a {@link RuntimeException} when the API server cannot be asked. */
    Membership ask();

    /** Deletes the node's reports; a {@link RuntimeException} when the API server refuses or is away. */
    void deleteReports();
}
