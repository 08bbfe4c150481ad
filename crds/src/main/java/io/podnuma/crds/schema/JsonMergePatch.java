package io.podnuma.crds.schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.Map;

/**
 * A schema customizer that applies an RFC 7386 JSON merge patch, recursing into nested objects. fabric8's own
 * {@code MergePatchCustomizer} replaces a whole {@code properties} map instead, which would drop every generated
 * property next to the one being patched.
 *
 * <p>Used at CRD generation time only, through {@code @SchemaCustomizer(value = JsonMergePatch.class, input = ...)}.
 */
public final class JsonMergePatch implements SchemaCustomizer.Customizer {

    @Override
    public JSONSchemaProps apply(JSONSchemaProps props, String input, KubernetesSerialization serialization) {
        JsonNode schema = serialization.convertValue(props, JsonNode.class);
        JsonNode patch = serialization.unmarshal(input, JsonNode.class);
        return serialization.convertValue(merge(schema, patch), JSONSchemaProps.class);
    }

    /** RFC 7386: objects merge key by key, a {@code null} value removes the key, anything else replaces. */
    public static JsonNode merge(JsonNode target, JsonNode patch) {
        if (!patch.isObject()) {
            return patch;
        }
        ObjectNode result = target != null && target.isObject()
                ? ((ObjectNode) target).deepCopy()
                : JsonNodeFactory.instance.objectNode();
        for (Map.Entry<String, JsonNode> field : patch.properties()) {
            if (field.getValue().isNull()) {
                result.remove(field.getKey());
            } else {
                result.set(field.getKey(), merge(result.get(field.getKey()), field.getValue()));
            }
        }
        return result;
    }
}
