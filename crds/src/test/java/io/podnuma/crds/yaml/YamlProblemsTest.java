package io.podnuma.crds.yaml;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class YamlProblemsTest {

    @Test
    void contextAndProblemOnOneLineWithoutTheExcerpt() {
        String snake = "while parsing a block mapping\n in 'reader', line 1, column 1:\n    a: 1\n    ^\n"
                + "expected <block end>, but found '-'\n in 'reader', line 2, column 1:\n    - b\n    ^\n";
        assertThat(YamlProblems.oneLine(snake))
                .isEqualTo("while parsing a block mapping: expected <block end>, but found '-'");
    }

    @Test
    void noMessageSaysSo() {
        assertThat(YamlProblems.oneLine(null)).isEqualTo("unknown error");
        assertThat(YamlProblems.oneLine("  \n")).isEmpty();
    }
}
