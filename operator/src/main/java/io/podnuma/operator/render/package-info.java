/**
 * Render: a policy and the operator's settings become the objects that run its agents (the agent's ConfigMap, the
 * DaemonSet, the metrics Service, a ServiceMonitor). Pure: same inputs, same objects, byte for byte, so applying them
 * again changes nothing.
 */
package io.podnuma.operator.render;
