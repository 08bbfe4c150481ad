package io.podnuma.agent.nri;

import io.podnuma.agent.nri.ttrpc.ServiceMethod;
import io.podnuma.nri.v1alpha1.NriApi;

/** The ttrpc addresses of the NRI services, taken from the compiled proto (package {@code nri.pkg.api.v1alpha1}). */
final class NriMethods {

    static final String PLUGIN =
            NriApi.getDescriptor().findServiceByName("Plugin").getFullName();
    static final String RUNTIME =
            NriApi.getDescriptor().findServiceByName("Runtime").getFullName();

    static final ServiceMethod REGISTER_PLUGIN = new ServiceMethod(RUNTIME, "RegisterPlugin");
    static final ServiceMethod UPDATE_CONTAINERS = new ServiceMethod(RUNTIME, "UpdateContainers");

    private NriMethods() {}

    static ServiceMethod plugin(String method) {
        if (NriApi.getDescriptor().findServiceByName("Plugin").findMethodByName(method) == null) {
            throw new IllegalArgumentException("the Plugin service has no method " + method);
        }
        return new ServiceMethod(PLUGIN, method);
    }
}
