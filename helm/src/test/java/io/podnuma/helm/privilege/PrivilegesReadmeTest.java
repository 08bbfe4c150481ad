package io.podnuma.helm.privilege;

import static org.assertj.core.api.Assertions.assertThat;

import io.podnuma.helm.ChartFiles;
import io.podnuma.testkit.Repository;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The README's "What it touches and why" RBAC table is {@link Privileges}, the matrix {@link LeastPrivilegeIT} holds
 * the API server to; {@code -Dpodnuma.readme.update=true} rewrites it instead of failing.
 */
class PrivilegesReadmeTest {

    static final String UPDATE_PROPERTY = "podnuma.readme.update";

    @Test
    void theReadmesRbacTableIsTheMatrix() throws IOException {
        Path readme = Repository.resolve("README.md");
        String current = ChartFiles.text(readme);
        String expected = PrivilegesTable.replace(current, PrivilegesTable.markdown(Privileges.GRANTS));
        if (Boolean.getBoolean(UPDATE_PROPERTY) && !expected.equals(current)) {
            Files.writeString(readme, expected, StandardCharsets.UTF_8);
            current = expected;
        }
        assertThat(current)
                .as(
                        "%s: the RBAC table differs from Privileges; regenerate it with ./mvnw -B -ntp -pl helm -am test"
                                + " -Dtest=PrivilegesReadmeTest -Dsurefire.failIfNoSpecifiedTests=false -D%s=true",
                        readme, UPDATE_PROPERTY)
                .isEqualTo(expected);
    }
}
