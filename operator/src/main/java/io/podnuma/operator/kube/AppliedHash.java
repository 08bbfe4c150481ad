package io.podnuma.operator.kube;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;

/**
 * The hash of an object as the operator applies it, kept in an annotation on the object. A reconcile applies an
 * object only when the hash of what it would apply differs from the one the cached object carries, so an unchanged
 * policy makes no request at all, whatever fields the API server defaulted. Map keys are sorted before hashing: the
 * same object hashes the same in every JVM.
 */
public final class AppliedHash {

    public static final String ANNOTATION = "podnuma.io/applied-hash";

    private static final ObjectMapper CANONICAL =
            new ObjectMapper().configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true);
    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

    private AppliedHash() {}

    public static String of(HasMetadata desired) {
        try {
            Map<?, ?> tree = CANONICAL.readValue(SERIALIZATION.asJson(desired), Map.class);
            byte[] digest = MessageDigest.getInstance("SHA-256")
                    .digest(CANONICAL.writeValueAsString(tree).getBytes(StandardCharsets.UTF_8));
            return "sha256:" + HexFormat.of().formatHex(digest);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialize " + desired.getKind(), e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("no SHA-256", e);
        }
    }

    /** The hash an object in the cluster carries. */
    public static Optional<String> on(HasMetadata current) {
        Map<String, String> annotations = current.getMetadata().getAnnotations();
        return Optional.ofNullable(annotations == null ? null : annotations.get(ANNOTATION));
    }
}
