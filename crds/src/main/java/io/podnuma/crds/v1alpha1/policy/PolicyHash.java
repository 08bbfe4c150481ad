package io.podnuma.crds.v1alpha1.policy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.podnuma.crds.v1alpha1.NumaResourcePolicySpec;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The identity of a policy spec: {@code sha256:<hex>} of its canonical JSON (keys sorted, no formatting). The agent
 * stores it with its checkpoint and reports it in {@code NumaNodeState}; the operator computes the same value from the
 * spec it rendered, so "this node runs the current policy" is one string comparison on both sides.
 */
public final class PolicyHash {

    private static final ObjectMapper CANONICAL = JsonMapper.builder()
            .enable(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY)
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
            .build();

    private PolicyHash() {}

    public static String of(NumaResourcePolicySpec policy) {
        try {
            byte[] json = CANONICAL.writeValueAsBytes(policy);
            return "sha256:"
                    + HexFormat.of()
                            .formatHex(MessageDigest.getInstance("SHA-256").digest(json));
        } catch (JsonProcessingException | NoSuchAlgorithmException e) {
            throw new IllegalStateException("cannot hash the policy: " + e.getMessage(), e);
        }
    }
}
