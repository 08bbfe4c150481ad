package io.podnuma.securemetrics;

import io.fabric8.kubernetes.api.model.authentication.TokenReview;
import io.fabric8.kubernetes.api.model.authentication.TokenReviewBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenReviewStatus;
import io.fabric8.kubernetes.api.model.authentication.UserInfo;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReviewBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Asks the API server: a {@code TokenReview} (authentication.k8s.io/v1) for who a token is, a
 * {@code SubjectAccessReview} (authorization.k8s.io/v1) for whether that identity may use a non-resource URL. The
 * caller's service account needs {@code create} on both (the {@code system:auth-delegator} rules).
 */
public final class KubeAccessReviews implements AccessReviews {

    private final KubernetesClient client;

    public KubeAccessReviews(KubernetesClient client) {
        this.client = Objects.requireNonNull(client, "client");
    }

    @Override
    public Optional<Requester> authenticate(BearerToken token) {
        TokenReview review = new TokenReviewBuilder()
                .withNewSpec()
                .withToken(token.value())
                .endSpec()
                .build();
        TokenReviewStatus status;
        try {
            status = client.authentication().v1().tokenReviews().create(review).getStatus();
        } catch (KubernetesClientException e) {
            throw new ReviewFailedException("TokenReview failed: " + e.getMessage(), e);
        }
        if (status == null) {
            throw new ReviewFailedException("TokenReview came back without a status", null);
        }
        if (!Boolean.TRUE.equals(status.getAuthenticated()) || status.getUser() == null) {
            return Optional.empty();
        }
        UserInfo user = status.getUser();
        if (user.getUsername() == null || user.getUsername().isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new Requester(
                user.getUsername(),
                user.getUid(),
                Objects.requireNonNullElse(user.getGroups(), List.of()),
                Objects.requireNonNullElse(user.getExtra(), Map.of())));
    }

    @Override
    public boolean allowed(Requester requester, NonResourceRequest request) {
        SubjectAccessReview review = new SubjectAccessReviewBuilder()
                .withNewSpec()
                .withUser(requester.username())
                .withUid(requester.uid().isEmpty() ? null : requester.uid())
                .withGroups(requester.groups())
                .withExtra(new HashMap<>(requester.extra()))
                .withNewNonResourceAttributes()
                .withPath(request.path())
                .withVerb(request.verb())
                .endNonResourceAttributes()
                .endSpec()
                .build();
        SubjectAccessReview answer;
        try {
            answer = client.authorization().v1().subjectAccessReview().create(review);
        } catch (KubernetesClientException e) {
            throw new ReviewFailedException("SubjectAccessReview failed: " + e.getMessage(), e);
        }
        if (answer.getStatus() == null) {
            throw new ReviewFailedException("SubjectAccessReview came back without a status", null);
        }
        return Boolean.TRUE.equals(answer.getStatus().getAllowed());
    }
}
