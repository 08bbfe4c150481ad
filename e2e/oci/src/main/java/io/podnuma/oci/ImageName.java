package io.podnuma.oci;

import java.util.regex.Pattern;

/**
 * A local image reference, {@code repository:tag} (e.g. {@code podnuma.local/pause:0.1.0-SNAPSHOT}): what a pod spec
 * names with {@code imagePullPolicy: Never}, and what the layout's index carries for {@code ctr images import}.
 */
public record ImageName(String repository, String tag) {
    private static final Pattern REPOSITORY =
            Pattern.compile("[a-z0-9]+([._-][a-z0-9]+)*(/[a-z0-9]+([._-][a-z0-9]+)*)+");
    private static final Pattern TAG = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}");

    public ImageName {
        if (!REPOSITORY.matcher(repository).matches()) {
            throw new IllegalArgumentException(
                    "not a repository with a domain, e.g. podnuma.local/pause: " + repository);
        }
        if (!TAG.matcher(tag).matches()) {
            throw new IllegalArgumentException("not an image tag: " + tag);
        }
    }

    public String reference() {
        return repository + ":" + tag;
    }

    @Override
    public String toString() {
        return reference();
    }
}
