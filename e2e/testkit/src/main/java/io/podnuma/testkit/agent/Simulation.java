package io.podnuma.testkit.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.podnuma.crds.v1alpha1.NumaResourcePolicy;
import io.podnuma.crds.v1alpha1.NumaResourcePolicySpec;
import io.podnuma.testkit.cpu.CpuList;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * A sequence of pod admissions and deletions through {@code node-agent simulate} (the engine, as the agent runs it)
 * on a sysfs tree: what an oracle test compares with the kubelet's decisions on a real node.
 */
public final class Simulation {

    private static final ObjectMapper JSON = new ObjectMapper();

    private Simulation() {}

    /** A pod to admit, or (delete) to remove. */
    public record Step(Pod pod, boolean delete) {
        public static Step admit(Pod pod) {
            return new Step(pod, false);
        }

        public static Step delete(Pod pod) {
            return new Step(pod, true);
        }
    }

    /** Where the engine put a container: its CPUs and its memory nodes (empty: not pinned, every node). */
    public record Placement(CpuList cpus, CpuList memoryNodes) {}

    /** Each admitted pod's containers by name, and each refused pod's {@code reason: message}. */
    public record Result(Map<String, Map<String, Placement>> pods, Map<String, String> refusals) {

        /** Each admitted pod's containers' CPUs. */
        public Map<String, Map<String, CpuList>> cpus() {
            Map<String, Map<String, CpuList>> out = new TreeMap<>();
            pods.forEach((pod, cs) -> {
                Map<String, CpuList> m = new TreeMap<>();
                cs.forEach((c, p) -> m.put(c, p.cpus()));
                out.put(pod, m);
            });
            return out;
        }
    }

    /**
     * Runs {@code steps} in namespace {@code namespace} under {@code policy} (on every node) on the machine
     * {@code sysfs} describes; inputs and the simulation's stderr go under {@code workDir/<run>}.
     */
    public static Result run(
            Path sysfs, NumaResourcePolicySpec policy, String namespace, List<Step> steps, Path workDir, String run) {
        return run(sysfs, policy, namespace, steps, workDir, run, Optional.empty());
    }

    /**
     * {@link #run(Path, NumaResourcePolicySpec, String, List, Path, String)} on a node with {@code devices} (simulate's
     * {@code --devices} file, e.g. {@link io.podnuma.testkit.devices.AccelPlugin#simulateDevices}); a pod holds those
     * its {@code podnuma.io/simulate-devices} annotation names.
     */
    public static Result run(
            Path sysfs,
            NumaResourcePolicySpec policy,
            String namespace,
            List<Step> steps,
            Path workDir,
            String run,
            Optional<String> devices) {
        try {
            Path dir = Files.createDirectories(workDir.resolve("simulate-" + run));
            Path pods = Files.createDirectories(dir.resolve("pods"));
            for (int i = 0; i < steps.size(); i++) {
                Pod doc = manifest(steps.get(i), namespace);
                Files.writeString(
                        pods.resolve(
                                "%03d-%s.yaml".formatted(i, doc.getMetadata().getName())),
                        Serialization.asYaml(doc));
            }
            NumaResourcePolicy p = new NumaResourcePolicy("oracle", onEveryNode(policy));
            Path policyFile = Files.writeString(dir.resolve("policy.yaml"), Serialization.asYaml(p));
            Path err = dir.resolve("simulate.err");
            List<String> command = new ArrayList<>(List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-jar",
                    AgentCliJar.locate().toString(),
                    "simulate",
                    "--sysfs",
                    sysfs.toString(),
                    "--policy",
                    policyFile.toString(),
                    "--pods",
                    pods.toString(),
                    "--output",
                    "json"));
            if (devices.isPresent()) {
                command.add("--devices");
                command.add(Files.writeString(dir.resolve("devices.yaml"), devices.get())
                        .toString());
            }
            Process simulate =
                    new ProcessBuilder(command).redirectError(err.toFile()).start();
            String stdout = new String(simulate.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!simulate.waitFor(120, TimeUnit.SECONDS)) {
                simulate.destroyForcibly();
                throw new IllegalStateException("simulate did not finish within 120 s (inputs in " + dir + ")");
            }
            if (simulate.exitValue() != 0) {
                throw new IllegalStateException("simulate exited " + simulate.exitValue() + " (inputs in " + dir + "): "
                        + Files.readString(err));
            }
            return parse(JSON.readTree(stdout));
        } catch (IOException e) {
            throw new UncheckedIOException("simulate: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted waiting for simulate", e);
        }
    }

    private static Pod manifest(Step s, String namespace) {
        if (s.delete()) {
            return new PodBuilder()
                    .withNewMetadata()
                    .withNamespace(namespace)
                    .withName(s.pod().getMetadata().getName())
                    .withAnnotations(Map.of("podnuma.io/simulate", "delete"))
                    .endMetadata()
                    .build();
        }
        return new PodBuilder(s.pod())
                .editMetadata()
                .withNamespace(namespace)
                .endMetadata()
                .build();
    }

    private static Result parse(JsonNode out) {
        Map<String, Map<String, Placement>> pods = new TreeMap<>();
        for (JsonNode pod : out.path("pods")) {
            Map<String, Placement> cs = new TreeMap<>();
            for (JsonNode c : pod.path("containers")) {
                List<Integer> mems = new ArrayList<>();
                c.path("memoryNodes").forEach(n -> mems.add(n.asInt()));
                cs.put(
                        c.path("name").asText(),
                        new Placement(
                                CpuList.parse(c.path("cpus").asText()), CpuList.of(mems.toArray(Integer[]::new))));
            }
            pods.put(pod.path("name").asText(), cs);
        }
        Map<String, String> refusals = new LinkedHashMap<>();
        for (JsonNode r : out.path("rejected")) {
            refusals.put(
                    r.path("name").asText(),
                    r.path("reason").asText() + ": " + r.path("message").asText());
        }
        return new Result(pods, refusals);
    }

    private static NumaResourcePolicySpec onEveryNode(NumaResourcePolicySpec s) {
        return new NumaResourcePolicySpec(
                new LabelSelector(),
                s.priority(),
                s.topologyManager(),
                s.cpuManager(),
                s.memoryManager(),
                s.podLevelResources(),
                s.admission(),
                s.exportNodeResourceTopology());
    }
}
