package io.podnuma.securemetrics;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/** Who a token belongs to, as the API server's TokenReview says; passed on unchanged to the SubjectAccessReview. */
public record Requester(String username, String uid, List<String> groups, Map<String, List<String>> extra) {

    public Requester {
        Objects.requireNonNull(username, "username");
        uid = Objects.requireNonNullElse(uid, "");
        groups = List.copyOf(groups);
        extra = Map.copyOf(extra);
    }
}
