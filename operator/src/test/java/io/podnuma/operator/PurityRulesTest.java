package io.podnuma.operator;

import static com.tngtech.archunit.base.DescribedPredicate.describe;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The operator's decisions are pure functions: node assignment ({@code assign}), policy status ({@code status}) and
 * the agent's objects ({@code render}), what a reconcile must do ({@code plan}), the reconcile's steps behind their
 * ports ({@code reconcile}) and each attempt at the leader Lease ({@code election}) see only what they are given. They may use the API's model classes (Node, LabelSelector, Condition) but not the
 * Kubernetes client, the operator SDK, the file system or the clock; those belong to the reconciler around them, and
 * the time is a parameter.
 */
class PurityRulesTest {

    /** The decision packages. */
    static final String[] PURE = {
        "io.podnuma.operator.assign..",
        "io.podnuma.operator.status..",
        "io.podnuma.operator.render..",
        "io.podnuma.operator.plan..",
        "io.podnuma.operator.reconcile..",
        "io.podnuma.operator.election.."
    };

    /** Static methods that read the machine's time. */
    private static final Set<String> TIME_READS = Set.of(
            "java.lang.System.currentTimeMillis",
            "java.lang.System.nanoTime",
            "java.time.Instant.now",
            "java.time.LocalDateTime.now",
            "java.time.LocalDate.now",
            "java.time.LocalTime.now",
            "java.time.OffsetDateTime.now",
            "java.time.ZonedDateTime.now");

    private static final JavaClasses OPERATOR = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.podnuma.operator");

    static ArchRule pure(String... packages) {
        return noClasses()
                .that()
                .resideInAnyPackage(packages)
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("io.fabric8.kubernetes.client..", "io.javaoperatorsdk..", "java.nio.file..")
                .orShould()
                .dependOnClassesThat()
                .haveFullyQualifiedName("java.io.File")
                .orShould()
                .dependOnClassesThat()
                .haveFullyQualifiedName("java.time.Clock")
                .orShould()
                .dependOnClassesThat()
                .haveFullyQualifiedName("java.time.InstantSource")
                .orShould()
                .callMethodWhere(describe(
                        "reads the clock",
                        (JavaMethodCall call) ->
                                TIME_READS.contains(call.getTargetOwner().getName() + "." + call.getName())))
                .because("the decisions are pure functions of their inputs: no client, no operator SDK, no files,"
                        + " and the time is a parameter");
    }

    @Test
    void theDecisionPackagesArePure() {
        pure(PURE).check(OPERATOR);
    }

    private static final JavaClasses FIXTURE =
            new ClassFileImporter().importPackages("io.podnuma.operator.archfixture");

    @Test
    void theRuleCatchesADecisionUsingTheClient() {
        assertThatThrownBy(() -> pure("io.podnuma.operator.archfixture..").check(FIXTURE))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("ClientUsingDecision")
                .hasMessageContaining("io.fabric8.kubernetes.client.KubernetesClient");
    }

    @Test
    void theRuleCatchesADecisionReadingFiles() {
        assertThatThrownBy(() -> pure("io.podnuma.operator.archfixture..").check(FIXTURE))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("FileReadingDecision.configured(java.lang.String)> calls method <java.nio.file")
                .hasMessageContaining("FileReadingDecision.legacy(java.lang.String)> calls constructor <java.io.File");
    }

    @Test
    void theRuleCatchesADecisionReadingTheClock() {
        assertThatThrownBy(() -> pure("io.podnuma.operator.archfixture..").check(FIXTURE))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("ClockReadingDecision.instantNow()> calls method <java.time.Instant.now()>")
                .hasMessageContaining(
                        "ClockReadingDecision.millis()> calls method <java.lang.System.currentTimeMillis()>")
                .hasMessageContaining("ClockReadingDecision.fromClock(java.time.Clock)> calls method <java.time.Clock");
    }
}
