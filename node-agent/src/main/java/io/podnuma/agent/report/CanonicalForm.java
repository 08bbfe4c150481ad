package io.podnuma.agent.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.podnuma.crds.v1alpha1.NumaNodeState;

/**
 * The rendered object as one string with sorted keys: two renderings are the same object exactly when their canonical
 * forms are equal, whatever order maps were filled in.
 */
final class CanonicalForm {

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY)
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
            .build();

    private CanonicalForm() {}

    /** Name, spec, owner references and status: what the agent applies. Server-filled metadata is left out. */
    static String of(NumaNodeState object) {
        NumaNodeState intent = new NumaNodeState(object.getMetadata().getName());
        intent.getMetadata().setOwnerReferences(object.getMetadata().getOwnerReferences());
        intent.setSpec(object.getSpec());
        intent.setStatus(object.getStatus());
        try {
            return MAPPER.writeValueAsString(intent);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(
                    "NumaNodeState " + object.getMetadata().getName() + " cannot be serialised: "
                            + e.getOriginalMessage(),
                    e);
        }
    }
}
