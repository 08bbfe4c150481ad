package io.podnuma.agent.membership;

/** Whether the node is governed by podnuma, as the API server answers. */
public enum Membership {
    /** The node carries the policy label of the policy in force. */
    MEMBER,
    /** The label is gone or names another policy, or the Node object is gone. */
    LEFT
}
