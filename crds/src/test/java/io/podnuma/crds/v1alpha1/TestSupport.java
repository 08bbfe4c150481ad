package io.podnuma.crds.v1alpha1;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

final class TestSupport {

    static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

    private TestSupport() {}

    static JsonNode json(Object value) {
        return SERIALIZATION.convertValue(value, JsonNode.class);
    }

    /** The generated openAPIV3Schema of NumaResourcePolicy's spec, as a JSON tree. */
    static JsonNode policySpecSchema() {
        return crdTree("numaresourcepolicies.podnuma.io").at("/spec/versions/0/schema/openAPIV3Schema/properties/spec");
    }

    static JsonNode crdTree(String crdName) {
        Path dir = Path.of(System.getProperty("podnuma.crds.generatedDir", "target/classes/META-INF/fabric8"));
        Path file = dir.resolve(crdName + "-v1.yml");
        try {
            return SERIALIZATION.unmarshal(Files.readString(file), JsonNode.class);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + " (run the build to generate it)", e);
        }
    }
}
