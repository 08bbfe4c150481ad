package io.podnuma.demo.journey;

import io.podnuma.images.PodnumaImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** The images {@code e2e/images} built for this checkout, as the demo's nodes import and its pods name them. */
record DemoImages(Path root, String tag) {

    /** The OCI tars of {@code images}, built by {@code package}. */
    List<Path> tars(List<PodnumaImage> images) {
        Path dir = root.resolve(PodnumaImage.BUILD_DIR);
        return images.stream().map(i -> i.tarIn(dir)).toList();
    }

    /** The first of {@code images} not built yet, said as what to run. */
    Optional<String> missing(List<PodnumaImage> images) {
        return tars(images).stream()
                .filter(t -> !Files.isRegularFile(t))
                .findFirst()
                .map(t -> "no image " + t + " (built by `./mvnw package -pl e2e/images -am`)");
    }

    /** The reference a pod names {@code image} by. */
    String reference(PodnumaImage image) {
        return image.name(tag).reference();
    }
}
