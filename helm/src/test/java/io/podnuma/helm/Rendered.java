package io.podnuma.helm;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.List;
import java.util.Optional;

/** What {@code helm template} rendered, as typed objects. */
public record Rendered(List<HasMetadata> objects) {

    public Rendered {
        objects = List.copyOf(objects);
    }

    public <T extends HasMetadata> List<T> all(Class<T> type) {
        return objects.stream().filter(type::isInstance).map(type::cast).toList();
    }

    public <T extends HasMetadata> Optional<T> find(Class<T> type, String name) {
        return all(type).stream()
                .filter(o -> o.getMetadata().getName().equals(name))
                .findFirst();
    }

    /** The one object of that type and name; fails listing what was rendered. */
    public <T extends HasMetadata> T get(Class<T> type, String name) {
        return find(type, name)
                .orElseThrow(() -> new AssertionError("no " + type.getSimpleName() + " " + name + " among "
                        + objects.stream()
                                .map(o -> o.getKind() + "/" + o.getMetadata().getName())
                                .toList()));
    }

    public List<String> kindsAndNames() {
        return objects.stream()
                .map(o -> o.getKind() + "/" + o.getMetadata().getName())
                .sorted()
                .toList();
    }
}
