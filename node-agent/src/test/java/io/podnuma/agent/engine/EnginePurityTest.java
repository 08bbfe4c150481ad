package io.podnuma.agent.engine;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;

/**
 * The engine is a pure function of its inputs: it may use only the JDK's {@code java.lang},
 * {@code java.util} and {@code java.math} and itself. No files, no network, no Kubernetes client,
 * no gRPC; those belong to the shell around it.
 */
class EnginePurityTest {

    private static final JavaClasses ENGINE = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.podnuma.agent.engine");

    @Test
    void engineDependsOnlyOnLangUtilMathAndItself() {
        ArchRule rule = classes()
                .that()
                .resideInAPackage("io.podnuma.agent.engine..")
                .should()
                .onlyDependOnClassesThat()
                .resideInAnyPackage(
                        "io.podnuma.agent.engine..",
                        "java.lang",
                        "java.lang.invoke",
                        "java.lang.runtime",
                        "java.util..",
                        "java.math")
                .because("the allocation engine must stay pure: no I/O, no Kubernetes client, no gRPC");
        rule.check(ENGINE);
    }

    @Test
    void theRuleCatchesAnEngineClassThatReadsFiles() {
        JavaClasses offender = new ClassFileImporter().importClasses(FileReadingEngineClass.class);
        ArchRule rule = classes()
                .should()
                .onlyDependOnClassesThat()
                .resideInAnyPackage("io.podnuma.agent.engine..", "java.lang", "java.util..", "java.math");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> rule.check(offender))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("java.nio.file");
    }

    /** A stand-in for a mistake: engine code touching the file system. */
    static final class FileReadingEngineClass {
        static boolean exists(String name) {
            return java.nio.file.Files.exists(java.nio.file.Path.of(name));
        }
    }
}
