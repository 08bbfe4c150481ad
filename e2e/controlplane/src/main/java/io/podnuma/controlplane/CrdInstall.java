package io.podnuma.controlplane;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionCondition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientTimeoutException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Installs CustomResourceDefinitions from files and waits until the API server serves them. */
final class CrdInstall {

    static final Duration ESTABLISHED_TIMEOUT = Duration.ofSeconds(60);
    static final String FIELD_MANAGER = "podnuma-tests";

    private CrdInstall() {}

    /** @return the names of the CRDs installed, in file order */
    static List<String> install(KubernetesClient client, List<Path> files) {
        List<CustomResourceDefinition> crds = new ArrayList<>();
        for (Path file : files) {
            crds.addAll(read(client, file));
        }
        for (CustomResourceDefinition crd : crds) {
            client.resource(crd).fieldManager(FIELD_MANAGER).forceConflicts().serverSideApply();
        }
        List<String> names = new ArrayList<>();
        for (CustomResourceDefinition crd : crds) {
            String name = crd.getMetadata().getName();
            awaitEstablished(client, name);
            names.add(name);
        }
        return names;
    }

    /**
     * Whether the API server serves the CRD. A status without conditions is not Established yet: the controller
     * writes the status object before it has decided anything.
     */
    static boolean established(CustomResourceDefinition crd) {
        return crd != null
                && crd.getStatus() != null
                && crd.getStatus().getConditions() != null
                && crd.getStatus().getConditions().stream()
                        .anyMatch(c -> "Established".equals(c.getType()) && "True".equals(c.getStatus()));
    }

    private static void awaitEstablished(KubernetesClient client, String name) {
        var resource = client.apiextensions().v1().customResourceDefinitions().withName(name);
        try {
            resource.waitUntilCondition(CrdInstall::established, ESTABLISHED_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        } catch (KubernetesClientTimeoutException e) {
            CustomResourceDefinition last = resource.get();
            List<CustomResourceDefinitionCondition> conditions = last == null || last.getStatus() == null
                    ? List.of()
                    : last.getStatus().getConditions();
            throw new IllegalStateException(
                    "CRD " + name + " was not Established within " + ESTABLISHED_TIMEOUT + "; conditions: "
                            + conditions,
                    e);
        }
    }

    private static List<CustomResourceDefinition> read(KubernetesClient client, Path file) {
        List<CustomResourceDefinition> out = new ArrayList<>();
        try (InputStream in = Files.newInputStream(file)) {
            for (HasMetadata item : client.load(in).items()) {
                if (!(item instanceof CustomResourceDefinition crd)) {
                    throw new IllegalArgumentException(file + " holds a " + item.getKind() + " ("
                            + item.getMetadata().getName() + "), not only CustomResourceDefinitions");
                }
                out.add(crd);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot read the CRD file " + file.toAbsolutePath() + ": " + e.getMessage(), e);
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException(file.toAbsolutePath() + " holds no CustomResourceDefinition");
        }
        return out;
    }
}
