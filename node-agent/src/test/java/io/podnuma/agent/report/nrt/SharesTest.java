package io.podnuma.agent.report.nrt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SharesTest {

    @Test
    void splitsInProportionAndGivesLeftOversToTheLargestRemainders() {
        assertThat(Shares.split(10, new long[] {1, 1, 1})).containsExactly(4, 3, 3);
        assertThat(Shares.split(2500, new long[] {22, 24, 24, 24})).containsExactly(585, 639, 638, 638);
        assertThat(Shares.split(7, new long[] {0, 3, 4})).containsExactly(0, 3, 4);
    }

    @Test
    void nothingToSplitOrNowhereToPutIt() {
        assertThat(Shares.split(0, new long[] {5, 5})).containsExactly(0, 0);
        assertThat(Shares.split(9, new long[] {0, 0})).containsExactly(0, 0);
        assertThat(Shares.split(9, new long[] {})).isEmpty();
        assertThatThrownBy(() -> Shares.split(1, new long[] {1, -1})).hasMessage("weights must be 0 or more, got -1");
    }

    @Test
    void byteSizedAmountsAndWeightsDoNotOverflow() {
        long[] parts = Shares.split(1L << 50, new long[] {96L << 30, 96L << 30, 1L << 40});
        assertThat(Arrays.stream(parts).sum()).isEqualTo(1L << 50);
        assertThat(Math.abs(parts[0] - parts[1])).isLessThanOrEqualTo(1);
    }

    @Test
    void randomSplitsAddUpAndStayWithinOneUnitOfTheExactShare() {
        Random random = new Random(42);
        for (int round = 0; round < 2000; round++) {
            long[] weights = new long[1 + random.nextInt(8)];
            for (int i = 0; i < weights.length; i++) {
                weights[i] = random.nextInt(4) == 0 ? 0 : random.nextInt(100_000);
            }
            long amount = random.nextInt(1_000_000);
            long[] parts = Shares.split(amount, weights);
            long sum = Arrays.stream(weights).sum();
            assertThat(Arrays.stream(parts).sum()).isEqualTo(sum == 0 ? 0 : amount);
            for (int i = 0; i < weights.length; i++) {
                double exact = sum == 0 ? 0 : (double) amount * weights[i] / sum;
                assertThat((double) parts[i]).isBetween(Math.floor(exact), Math.floor(exact) + 1);
            }
        }
    }
}
