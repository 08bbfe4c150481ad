package io.podnuma.crds.v1alpha1.nodestate;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.podnuma.crds.schema.JsonMergePatch;

/** The last error the node agent hit, kept until a later one replaces it. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@SchemaCustomizer(value = JsonMergePatch.class, input = "{\"properties\":{\"time\":{\"format\":\"date-time\"}}}")
public record AgentError(
        @JsonPropertyDescription("When it happened, RFC 3339 (e.g. 2026-05-01T12:00:00Z).") @Required
        String time,

        @JsonPropertyDescription("Machine-readable reason in CamelCase, e.g. CgroupWriteFailed.")
        @Required
        @Size(max = 128)
        String reason,

        @JsonPropertyDescription("What failed, naming the object, field or file and the value.") @Size(max = 4096)
        String message) {}
