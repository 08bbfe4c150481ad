package io.podnuma.operator.reconcile;

import io.podnuma.operator.assign.LabelChange;

/** Writes a node's {@code podnuma.io/policy} label. */
public interface NodeLabels {

    /** Makes the node's label what the change says (a node that is gone is not an error). */
    void write(LabelChange change);
}
