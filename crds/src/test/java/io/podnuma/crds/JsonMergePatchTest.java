package io.podnuma.crds;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaPropsBuilder;
import io.podnuma.crds.schema.JsonMergePatch;
import org.junit.jupiter.api.Test;

class JsonMergePatchTest {

    private static JsonNode json(String text) {
        return GeneratedCrds.SERIALIZATION.unmarshal(text, JsonNode.class);
    }

    @Test
    void nestedObjectsMergeKeyByKey() {
        JsonNode merged = JsonMergePatch.merge(
                json("{\"properties\":{\"a\":{\"type\":\"string\"},\"b\":{\"type\":\"array\"}}}"),
                json("{\"properties\":{\"b\":{\"x-kubernetes-list-type\":\"atomic\"}}}"));

        assertThat(merged)
                .isEqualTo(json("{\"properties\":{\"a\":{\"type\":\"string\"},"
                        + "\"b\":{\"type\":\"array\",\"x-kubernetes-list-type\":\"atomic\"}}}"));
    }

    @Test
    void nullRemovesAndArraysAndScalarsReplace() {
        JsonNode merged = JsonMergePatch.merge(
                json("{\"required\":[\"a\",\"b\"],\"maxItems\":3,\"pattern\":\"x\"}"),
                json("{\"required\":[\"c\"],\"maxItems\":5,\"pattern\":null}"));

        assertThat(merged).isEqualTo(json("{\"required\":[\"c\"],\"maxItems\":5}"));
    }

    @Test
    void thePatchedTargetIsNotModified() {
        JsonNode target = json("{\"a\":{\"b\":1}}");

        JsonMergePatch.merge(target, json("{\"a\":{\"b\":2}}"));

        assertThat(target).isEqualTo(json("{\"a\":{\"b\":1}}"));
    }

    @Test
    void customizerKeepsGeneratedPropertiesBesideThePatchedOne() {
        JSONSchemaProps schema = new JSONSchemaPropsBuilder()
                .withType("object")
                .addToProperties(
                        "keep", new JSONSchemaPropsBuilder().withType("string").build())
                .addToProperties(
                        "list", new JSONSchemaPropsBuilder().withType("array").build())
                .build();

        JSONSchemaProps patched = new JsonMergePatch()
                .apply(
                        schema,
                        "{\"properties\":{\"list\":{\"x-kubernetes-list-type\":\"map\"}}}",
                        GeneratedCrds.SERIALIZATION);

        assertThat(patched.getProperties().get("keep").getType()).isEqualTo("string");
        assertThat(patched.getProperties().get("list").getType()).isEqualTo("array");
        assertThat(patched.getProperties().get("list").getXKubernetesListType()).isEqualTo("map");
    }
}
