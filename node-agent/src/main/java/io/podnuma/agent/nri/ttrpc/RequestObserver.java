package io.podnuma.agent.nri.ttrpc;

/** Told about each request the server answered, after the answer was written (or failed to be). */
@FunctionalInterface
public interface RequestObserver {
    void answered(ServiceMethod method, StatusCode code, long nanos);

    RequestObserver NONE = (method, code, nanos) -> {};
}
