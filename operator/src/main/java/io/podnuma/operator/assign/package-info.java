/**
 * Which policy governs which node: a pure function of the policies and the nodes ({@link NodeAssigner}), and the
 * {@code podnuma.io/policy} label changes that follow from it. No Kubernetes client, no files, no clock: the
 * operator's shell reads the objects, calls {@link NodeAssigner#assign}, and writes what it returns.
 */
package io.podnuma.operator.assign;
