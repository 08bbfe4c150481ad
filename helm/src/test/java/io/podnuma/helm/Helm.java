package io.podnuma.helm;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.podnuma.controlplane.CommandResult;
import io.podnuma.controlplane.ControlPlane;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** The real helm on this checkout's chart, as the ITs run it. */
public final class Helm {

    /** The version the plane serves; {@code helm template} needs it to meet the chart's kubeVersion. */
    public static final String KUBE_VERSION = "1.37.2";

    private Helm() {}

    /** {@code helm template RELEASE CHART -n NAMESPACE ARGS...}, for example {@code --set agent.network=pod}. */
    public static CommandResult template(ControlPlane plane, String release, String namespace, String... args) {
        List<String> command = new ArrayList<>(List.of(
                "template",
                release,
                ChartFiles.chart().toString(),
                "--namespace",
                namespace,
                "--kube-version",
                KUBE_VERSION));
        command.addAll(List.of(args));
        return plane.helm(command.toArray(String[]::new));
    }

    /** The objects of a successful {@code helm template}. */
    public static Rendered render(ControlPlane plane, String... args) {
        String yaml =
                template(plane, "r", "podnuma-system", args).assertSuccess().stdout();
        List<HasMetadata> objects = plane.client()
                .load(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8)))
                .items();
        return new Rendered(objects);
    }
}
