package io.podnuma.helm;

import static org.assertj.core.api.Assertions.assertThat;

import io.podnuma.controlplane.CommandResult;
import io.podnuma.controlplane.ControlPlane;
import io.podnuma.controlplane.ControlPlaneExtension;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bad values fail {@code helm template} (and so {@code helm install}, which validates the same way) before anything
 * reaches the cluster, with the key and what is allowed: the schema's messages, and the chart's own checks across
 * values.
 */
@ExtendWith(ControlPlaneExtension.class)
class ValuesRejectedIT {

    static Stream<Arguments> badValues() {
        return Stream.of(
                bad("--set", "operator.replicas=two", "at '/operator/replicas': got string, want integer"),
                bad("--set", "operator.replicas=-1", "at '/operator/replicas': minimum: got -1, want 0"),
                bad("--set", "operator.replica=2", "at '/operator': additional properties 'replica' not allowed"),
                bad("--set", "typo=1", "additional properties 'typo' not allowed"),
                bad(
                        "--set",
                        "operator.image.pullPolicy=Sometimes",
                        "at '/operator/image/pullPolicy': value must be" + " one of 'Always', 'IfNotPresent', 'Never'"),
                bad("--set", "operator.image.repository=with space", "at '/operator/image/repository'"),
                bad("--set", "operator.image.digest=abc123", "at '/operator/image/digest': 'abc123' does not match"),
                bad(
                        "--set",
                        "agent.image.digest=sha256:" + "A".repeat(64),
                        "at '/agent/image/digest': 'sha256:" + "A".repeat(64) + "' does not match"),
                bad(
                        "--set",
                        "agent.serviceAccount.name=Not_A_Name",
                        "at '/agent/serviceAccount/name': 'Not_A_Name' does not match"),
                bad("--set", "rbac.create=no", "at '/rbac/create': got string, want boolean"),
                bad("--set", "namespaceOverride=Other", "at '/namespaceOverride': 'Other' does not match"),
                bad(
                        "--set-json",
                        "operator.extraEnv=[{\"value\":\"x\"}]",
                        "at '/operator/extraEnv/0': missing property 'name'"),
                bad("--set-json", "operator.extraArgs=[1]", "at '/operator/extraArgs/0': got number, want string"),
                bad(
                        "--set",
                        "operator.healthPort=70000",
                        "at '/operator/healthPort': maximum: got 70,000, want" + " 65,535"),
                bad("--set", "operator.apiServer=no-port", "at '/operator/apiServer': 'no-port' does not match"),
                bad("--set", "operator.restoreTimeout=5 minutes", "at '/operator/restoreTimeout'"),
                bad("--set", "operator.hostNetwork=yes", "at '/operator/hostNetwork': got string, want boolean"),
                bad("--set", "agent.network=bridge", "at '/agent/network': value must be one of 'host', 'pod'"),
                bad("--set", "agent.logLevel=verbose", "at '/agent/logLevel': value must be one of"),
                bad("--set", "agent.logFormat=JSON", "at '/agent/logFormat': value must be one of 'text', 'json'"),
                bad("--set", "operator.logLevel=all", "at '/operator/logLevel': value must be one of"),
                bad(
                        "--set",
                        "operator.logFormat=logfmt",
                        "at '/operator/logFormat': value must be one of 'text', 'json'"),
                bad("--set", "agent.maxUnavailable=0%", "at '/agent/maxUnavailable': '0%' does not match"),
                bad("--set", "agent.maxUnavailable=0", "at '/agent/maxUnavailable': minimum: got 0, want 1"),
                bad("--set", "agent.reconcilePeriod=10x", "at '/agent/reconcilePeriod': '10x' does not match"),
                bad("--set", "agent.podResourcesSocket=relative.sock", "at '/agent/podResourcesSocket'"),
                bad("--set", "agent.pinning=NRI", "at '/agent/pinning': value must be one of 'auto', 'nri', 'cgroup'"),
                bad("--set-string", "agent.nriPluginIndex=4", "at '/agent/nriPluginIndex': '4' does not match"),
                bad("--set-string", "agent.nriPluginIndex=100", "at '/agent/nriPluginIndex': '100' does not match"),
                // --set makes 40 a number, and 05 would be 5: the index is a string.
                bad("--set", "agent.nriPluginIndex=40", "at '/agent/nriPluginIndex': got number, want string"),
                // The NRI toleration's value is "true", which --set makes a boolean: --set-string it.
                bad(
                        "--set",
                        "agent.podAnnotations.tolerate=true",
                        "at '/agent/podAnnotations/tolerate': got boolean, want string"),
                bad("--set", "agent.nriSocket=/nri.sock", "at '/agent/nriSocket': '/nri.sock' does not match"),
                bad("--set", "agent.nriSocket=nri/nri.sock", "at '/agent/nriSocket': 'nri/nri.sock' does not match"),
                bad(
                        "--set",
                        "agent.resources.requests.cpu=lots",
                        "at '/agent/resources/requests/cpu': 'lots' does" + " not match"),
                bad(
                        "--set",
                        "agent.resources.limits.cpu=1",
                        "at '/agent/resources/limits': additional properties" + " 'cpu' not allowed"),
                bad("--set", "agent.hostPaths.sys=sys", "at '/agent/hostPaths/sys': 'sys' does not match"),
                bad(
                        "--set-json",
                        "agent.tolerations=[{\"operator\":\"Always\"}]",
                        "at '/agent/tolerations/0/operator':" + " value must be one of 'Exists', 'Equal'"),
                bad(
                        "--set-json",
                        "agent.tolerations={\"operator\":\"Exists\"}",
                        "at '/agent/tolerations': got object," + " want array"),
                bad("--set-json", "commonLabels={\"team\":1}", "at '/commonLabels/team': got number, want string"),
                bad("--set", "agent.priorityClassName=Not_A_Name", "at '/agent/priorityClassName'"),
                bad(
                        "--set",
                        "nodeResourceTopology.enabled=maybe",
                        "at '/nodeResourceTopology/enabled': got string," + " want boolean"),
                bad(
                        "--set",
                        "admissionPolicy.enable=false",
                        "at '/admissionPolicy': additional properties 'enable'" + " not allowed"),
                bad("--set", "metrics.secure.enabled=yes", "at '/metrics/secure/enabled': got string, want boolean"),
                bad(
                        "--set",
                        "metrics.secure.authCacheTtl=1 minute",
                        "at '/metrics/secure/authCacheTtl': '1 minute' does not match"),
                bad(
                        "--set",
                        "metrics.secure.certSecret=Not_A_Name",
                        "at '/metrics/secure/certSecret': 'Not_A_Name' does not match"),
                bad(
                        "--set-json",
                        "metrics.secure.readers=[{\"kind\":\"Robot\",\"name\":\"r\"}]",
                        "at '/metrics/secure/readers/0/kind': value must be one of"),
                bad(
                        "--set-json",
                        "agent.extraEnv=[{\"name\":\"X\",\"valueFrom\":{}}]",
                        "at '/agent/extraEnv/0': missing property 'value'"),
                bad("--set-json", "agent.affinity={\"nodeAfinity\":{}}", "invalid propertyName 'nodeAfinity'"),
                // The chart's own checks.
                bad(
                        "--set",
                        "agent.securityContext.privileged=true",
                        "agent.securityContext.privileged is set (true): the agent's securityContext is not a value."
                                + " The operator fixes it (not privileged, no privilege escalation, read-only root"
                                + " filesystem, every capability dropped"),
                bad(
                        "--set",
                        "agent.securityContext.readOnlyRootFilesystem=false",
                        "agent.securityContext.readOnlyRootFilesystem is set (false): the agent's securityContext is"
                                + " not a value"),
                bad(
                        "--set-json",
                        "agent.extraEnv=[{\"name\":\"PODNUMA_METRICS_SECURITY\",\"value\":\"http\"}]",
                        "agent.extraEnv sets PODNUMA_METRICS_SECURITY: the operator sets the agent's PODNUMA_* settings"
                                + " in its config file"),
                bad(
                        "--set-json",
                        "agent.extraEnv=[{\"name\":\"KUBERNETES_SERVICE_HOST\",\"value\":\"api.example.com\"}]",
                        "agent.extraEnv sets KUBERNETES_SERVICE_HOST"),
                bad(
                        "--set",
                        "operator.leaderElection=false",
                        "operator.replicas is 2 but operator.leaderElection"
                                + " is false: several replicas need leader election"),
                bad(
                        "--set",
                        "operator.metricsPort=8080",
                        "operator.healthPort and operator.metricsPort are both" + " 8080: they must differ"),
                bad(
                        "--set",
                        "agent.healthPort=9464",
                        "agent.healthPort and agent.metricsPort are both 9464: they" + " must differ"),
                bad(
                        "--set",
                        "metrics.secure.certSecret=podnuma-metrics-tls",
                        "metrics.secure.certSecret is set but metrics.secure.enabled is false: set"
                                + " metrics.secure.enabled=true to serve /metrics over https, or leave certSecret empty"),
                bad(
                        "--set",
                        "metrics.secure.authCacheTtl=11m",
                        "metrics.secure.authCacheTtl is 11m: allowed 0s to 10m"));
    }

    private static Arguments bad(String flag, String value, String message) {
        return Arguments.of(flag, value, message);
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("badValues")
    void failsWithAMessageNamingTheValue(String flag, String value, String message, ControlPlane plane) {
        CommandResult result = Helm.template(plane, "r", "podnuma-system", flag, value);
        assertThat(result.assertFailure().stderr()).contains(message);
    }
}
