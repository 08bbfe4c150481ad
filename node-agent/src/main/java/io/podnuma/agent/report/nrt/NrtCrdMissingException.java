package io.podnuma.agent.report.nrt;

/** The API server does not serve {@code noderesourcetopologies.topology.node.k8s.io/v1alpha2}: the CRD is absent. */
public final class NrtCrdMissingException extends NrtWriteException {

    public NrtCrdMissingException(String message, Throwable cause) {
        super(message, cause);
    }
}
