package io.podnuma.crds;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The CRDs this build generated, read back as fabric8 objects. */
final class GeneratedCrds {

    static final String POLICIES = "numaresourcepolicies.podnuma.io";
    static final String NODE_STATES = "numanodestates.podnuma.io";

    static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

    private GeneratedCrds() {}

    static Path generatedDir() {
        String dir = System.getProperty("podnuma.crds.generatedDir", "target/classes/META-INF/fabric8");
        return Path.of(dir);
    }

    static CustomResourceDefinition load(String crdName) {
        Path file = generatedDir().resolve(crdName + "-v1.yml");
        try {
            return SERIALIZATION.unmarshal(Files.readString(file), CustomResourceDefinition.class);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + " (run the build to generate it)", e);
        }
    }

    static CustomResourceDefinitionVersion onlyVersion(String crdName) {
        return load(crdName).getSpec().getVersions().getFirst();
    }

    static JSONSchemaProps rootSchema(String crdName) {
        return onlyVersion(crdName).getSchema().getOpenAPIV3Schema();
    }

    /** Follows property names from the root, e.g. {@code at(root, "spec", "cpuManager")}. */
    static JSONSchemaProps at(JSONSchemaProps schema, String... path) {
        JSONSchemaProps current = schema;
        for (String name : path) {
            current = current.getProperties().get(name);
            if (current == null) {
                throw new AssertionError("no property " + String.join(".", path) + " in the generated schema");
            }
        }
        return current;
    }
}
