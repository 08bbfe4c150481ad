package io.podnuma.agent.engine.topology;

import java.util.Arrays;

/**
 * The NUMA distance matrix as the kernel reports it ({@code /sys/devices/system/node/nodeN/distance}):
 * {@code distance(i, j)} for node ids {@code i, j}; 10 means local.
 */
public final class NumaDistances {

    private final int[][] matrix;

    private NumaDistances(int[][] matrix) {
        this.matrix = matrix;
    }

    /**
     * @param matrix a square matrix indexed by node id; row {@code i} is node {@code i}'s distance line
     */
    public static NumaDistances of(int[][] matrix) {
        int n = matrix.length;
        if (n > NumaMask.MAX_NODES) {
            throw new IllegalArgumentException(
                    "NUMA distance matrix has " + n + " rows: at most " + NumaMask.MAX_NODES + " nodes are supported");
        }
        int[][] copy = new int[n][];
        for (int i = 0; i < n; i++) {
            if (matrix[i] == null || matrix[i].length != n) {
                throw new IllegalArgumentException("NUMA distance row " + i + " has "
                        + (matrix[i] == null ? "no" : String.valueOf(matrix[i].length))
                        + " entries: the matrix must be square (" + n + " entries per row)");
            }
            for (int j = 0; j < n; j++) {
                if (matrix[i][j] < 0) {
                    throw new IllegalArgumentException("NUMA distance from node " + i + " to node " + j + " is "
                            + matrix[i][j] + ": distances must be non-negative");
                }
            }
            copy[i] = matrix[i].clone();
        }
        return new NumaDistances(copy);
    }

    /** Distance 10 on the diagonal and {@code remote} everywhere else. */
    public static NumaDistances uniform(int nodes, int remote) {
        int[][] m = new int[nodes][nodes];
        for (int i = 0; i < nodes; i++) {
            for (int j = 0; j < nodes; j++) {
                m[i][j] = i == j ? 10 : remote;
            }
        }
        return of(m);
    }

    public int size() {
        return matrix.length;
    }

    public int distance(int from, int to) {
        return matrix[from][to];
    }

    /**
     * The sum of distances over all ordered pairs of nodes in the mask, self pairs included. The kubelet
     * compares masks of equal size by the average of this sum; with equal sizes the sums compare the same
     * way, without floating point.
     */
    public long pairSum(NumaMask mask) {
        int[] nodes = mask.toArray();
        long sum = 0;
        for (int a : nodes) {
            requireKnown(a, mask);
            for (int b : nodes) {
                sum += matrix[a][b];
            }
        }
        return sum;
    }

    /** Checks that every node of {@code nodes} has a row. */
    public void requireCovers(NumaMask nodes) {
        for (int node : nodes.toArray()) {
            requireKnown(node, nodes);
        }
    }

    private void requireKnown(int node, NumaMask mask) {
        if (node >= matrix.length) {
            throw new IllegalArgumentException("NUMA node " + node + " of " + mask
                    + " has no distance row: the matrix covers nodes 0.." + (matrix.length - 1));
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof NumaDistances other && Arrays.deepEquals(matrix, other.matrix);
    }

    @Override
    public int hashCode() {
        return Arrays.deepHashCode(matrix);
    }

    @Override
    public String toString() {
        return "NumaDistances" + Arrays.deepToString(matrix);
    }
}
