package io.podnuma.e2e.footprint;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.podnuma.testkit.agent.JvmFlags;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The baseline: a pod from the agent image whose JVM runs with exactly the agent's flags (as the image's entrypoint
 * put them on the running agent's command line, so whatever {@code node-agent/jvm.flags} the image was built from)
 * but {@link IdleMain} instead of the agent's jar. The image has no shell and its CLI no idle command; the class
 * file comes in on a read-only hostPath volume.
 */
final class IdleJvmPod {

    static final String MOUNT = "/podnuma-idle";

    private IdleJvmPod() {}

    /**
     * The agent's command line with {@code -jar <jar> <args...>} replaced by {@code -cp MOUNT IdleMain}: the java
     * binary and every JVM option before {@code -jar} stay, except the agent's AOT cache (trained for the agent's jar,
     * it cannot be used with another class path; the JVM would then map no archive at all, not even the runtime's
     * archive of the JDK's classes that an idle JVM maps).
     *
     * @throws IllegalArgumentException when the command line runs no jar (not the image's entrypoint)
     */
    static List<String> command(List<String> agentCmdline) {
        int jar = agentCmdline.indexOf("-jar");
        if (jar < 1) {
            throw new IllegalArgumentException("the agent's command line runs no -jar: " + agentCmdline);
        }
        List<String> command = new ArrayList<>(JvmFlags.withoutClassCache(agentCmdline.subList(0, jar)));
        command.addAll(List.of("-cp", MOUNT, IdleMain.class.getName()));
        return command;
    }

    /**
     * The pod on {@code node}: one container {@code jvm} from {@code image} (never pulled) with {@code command}, the
     * agent's {@code resources} (the same QoS class and limit), {@code classes} mounted at {@link #MOUNT}.
     */
    static Pod pod(
            String namespace,
            String name,
            String node,
            String image,
            List<String> command,
            ResourceRequirements resources,
            Path classes) {
        return new PodBuilder()
                .withNewMetadata()
                .withNamespace(namespace)
                .withName(name)
                .endMetadata()
                .withNewSpec()
                .withNodeName(node)
                .withTerminationGracePeriodSeconds(5L)
                .withDnsPolicy("Default")
                .addNewContainer()
                .withName("jvm")
                .withImage(image)
                .withImagePullPolicy("Never")
                .withCommand(command)
                .withResources(resources)
                .addNewVolumeMount()
                .withName("idle")
                .withMountPath(MOUNT)
                .withReadOnly(true)
                .endVolumeMount()
                .endContainer()
                .addNewVolume()
                .withName("idle")
                .withNewHostPath()
                .withPath(classes.toString())
                .withType("Directory")
                .endHostPath()
                .endVolume()
                .endSpec()
                .build();
    }
}
