package io.podnuma.agent.nri.ttrpc;

import java.util.Objects;

/** The address of a unary method: the fully qualified proto service and the method name. */
public record ServiceMethod(String service, String method) {

    public ServiceMethod {
        Objects.requireNonNull(service, "service");
        Objects.requireNonNull(method, "method");
    }

    @Override
    public String toString() {
        return service + "/" + method;
    }
}
