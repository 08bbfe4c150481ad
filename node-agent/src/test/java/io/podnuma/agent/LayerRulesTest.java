package io.podnuma.agent;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * The node agent's layers: engine ← adapters ← runtime ← cli. The engine is pure (EnginePurityTest); adapters
 * speak to one outside thing each; the runtime puts them in order; the CLI starts it. Within and across the layers
 * no two packages need each other. The Kubernetes client is used
 * only where the API is spoken, and the API's {@code Pod} stops at the pod source ({@code pods}).
 */
class LayerRulesTest {

    /** The adapter packages: each talks to one outside thing (files, the API, a socket) or holds its format. */
    static final String[] ADAPTERS = {
        "cgroup",
        "checkpoint",
        "sysfs",
        "pods",
        "policy",
        "state",
        "report",
        "events",
        "podresources",
        "metrics",
        "kubelet",
        "http",
        "health",
        "config",
        "membership",
        "nri"
    };

    /**
     * Where the Kubernetes API is spoken: Events and evictions, the pod informer, the reports, the Node's membership,
     * the daemon, the CLI.
     */
    static final String[] CLIENT_PACKAGES = {"events", "pods", "report", "membership", "cli"};

    private static final JavaClasses AGENT = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.podnuma.agent");

    static ArchRule layers(String root) {
        return layeredArchitecture()
                .consideringOnlyDependenciesInLayers()
                .layer("Engine")
                .definedBy(root + ".engine..")
                .layer("Adapters")
                .definedBy(
                        Arrays.stream(ADAPTERS).map(a -> root + "." + a + "..").toArray(String[]::new))
                .layer("Runtime")
                .definedBy(root + ".runtime..")
                .layer("Cli")
                .definedBy(root + ".cli..")
                .whereLayer("Cli")
                .mayNotBeAccessedByAnyLayer()
                .whereLayer("Runtime")
                .mayOnlyBeAccessedByLayers("Cli")
                .whereLayer("Adapters")
                .mayOnlyBeAccessedByLayers("Runtime", "Cli")
                .whereLayer("Engine")
                .mayOnlyBeAccessedByLayers("Adapters", "Runtime", "Cli");
    }

    /**
     * Every package a slice of its own ({@code runtime} apart from {@code runtime.pods}), and no cycle among them, however
     * long: a package that needs another's types must not be needed by it, so each can be read, tested and changed
     * below the ones that use it. The runtime's shared values and ports are in {@code runtime.core}, which needs no other
     * runtime package.
     */
    static ArchRule packagesFreeOfCycles() {
        return slices().matching("io.podnuma.agent.(**)")
                .namingSlices("$1")
                .should()
                .beFreeOfCycles()
                .because("a two-way package dependency makes two packages one");
    }

    static ArchRule clientOnlyWhereTheApiIsSpoken(String root) {
        String[] allowed =
                Arrays.stream(CLIENT_PACKAGES).map(p -> root + "." + p + "..").toArray(String[]::new);
        return noClasses()
                .that()
                .resideOutsideOfPackages(allowed)
                .and()
                .doNotHaveFullyQualifiedName(root + ".runtime.AgentDaemon") // the wiring: builds the client's users
                .should()
                .dependOnClassesThat()
                .resideInAPackage("io.fabric8.kubernetes.client..")
                .because("the Kubernetes client belongs to the packages that speak the API");
    }

    @Test
    void engineAdaptersRuntimeCliDependOnlyDownwards() {
        layers("io.podnuma.agent").check(AGENT);
    }

    @Test
    void noTwoPackagesOfTheAgentNeedEachOther() {
        packagesFreeOfCycles().check(AGENT);
    }

    @Test
    void theKubernetesClientIsUsedOnlyWhereTheApiIsSpoken() {
        clientOnlyWhereTheApiIsSpoken("io.podnuma.agent").check(AGENT);
    }

    @Test
    void theApiPodStopsAtThePodSource() {
        noClasses()
                .that()
                .resideInAPackage("io.podnuma.agent.runtime..")
                .should()
                .dependOnClassesThat()
                .haveFullyQualifiedName("io.fabric8.kubernetes.api.model.Pod")
                .because("the runtime works on PodRecords; pods.PodFeed reads the API objects")
                .check(AGENT);
    }

    @Test
    void theLayerRuleCatchesAnEngineClassCallingTheRuntime() {
        JavaClasses fixture = new ClassFileImporter().importPackages("io.podnuma.agent.archfixture");
        assertThatThrownBy(() -> layers("io.podnuma.agent.archfixture").check(fixture))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("EngineCallingTheRuntime")
                .hasMessageContaining("FixtureRuntime");
    }

    @Test
    void theCycleRuleCatchesTwoPackagesNeedingEachOther() {
        JavaClasses fixture = new ClassFileImporter().importPackages("io.podnuma.agent.archfixture");
        assertThatThrownBy(() -> packagesFreeOfCycles().check(fixture))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("archfixture.runtime.pods")
                .hasMessageContaining("archfixture.runtime.status")
                .hasMessageContaining("FixturePodBook.summary()")
                .hasMessageContaining("FixtureStatus.line()");
    }

    @Test
    void theClientRuleCatchesAnAdapterThatDoesNotSpeakTheApi() {
        JavaClasses fixture = new ClassFileImporter().importPackages("io.podnuma.agent.archfixture");
        assertThatThrownBy(() -> clientOnlyWhereTheApiIsSpoken("io.podnuma.agent.archfixture")
                        .check(fixture))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("AdapterUsingTheClient")
                .hasMessageContaining("KubernetesClient");
    }
}
