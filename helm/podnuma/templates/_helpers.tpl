{{/* The chart name, or nameOverride. */}}
{{- define "podnuma.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* The prefix of every object name: fullnameOverride, else the release name with the chart name unless it holds it. */}}
{{- define "podnuma.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{/* The namespace of every namespaced object: namespaceOverride, else the release's. */}}
{{- define "podnuma.namespace" -}}
{{- default .Release.Namespace .Values.namespaceOverride }}
{{- end }}

{{/* Object names; 56 characters leave room for the suffixes. */}}
{{- define "podnuma.operator.name" -}}
{{- printf "%s-operator" (include "podnuma.fullname" . | trunc 54 | trimSuffix "-") }}
{{- end }}
{{- define "podnuma.agent.name" -}}
{{- printf "%s-agent" (include "podnuma.fullname" . | trunc 57 | trimSuffix "-") }}
{{- end }}

{{/*
The ServiceAccount each component runs as: serviceAccount.name, else the component's object name, whether the chart
makes it or not (never the namespace's "default", which the chart's rules would then be bound to).
*/}}
{{- define "podnuma.operator.serviceAccountName" -}}
{{- default (include "podnuma.operator.name" .) .Values.operator.serviceAccount.name }}
{{- end }}
{{- define "podnuma.agent.serviceAccountName" -}}
{{- default (include "podnuma.agent.name" .) .Values.agent.serviceAccount.name }}
{{- end }}

{{/* Labels on every object: the app.kubernetes.io set, then commonLabels. */}}
{{- define "podnuma.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{ include "podnuma.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: podnuma
{{- with .Values.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{/* What selects this release's objects; never changes across upgrades. */}}
{{- define "podnuma.selectorLabels" -}}
app.kubernetes.io/name: {{ include "podnuma.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{/* Labels of one component: {{ include "podnuma.componentLabels" (list . "operator") }} */}}
{{- define "podnuma.componentLabels" -}}
{{ include "podnuma.labels" (index . 0) }}
app.kubernetes.io/component: {{ index . 1 }}
{{- end }}
{{- define "podnuma.componentSelectorLabels" -}}
{{ include "podnuma.selectorLabels" (index . 0) }}
app.kubernetes.io/component: {{ index . 1 }}
{{- end }}

{{/*
An image reference from {repository, tag, digest}: repository@digest when a digest is set (the tag is then ignored, as
the runtime would pull by the digest anyway), else repository:tag, an empty tag being the chart's appVersion.
*/}}
{{- define "podnuma.image" -}}
{{- $root := index . 0 }}
{{- $image := index . 1 }}
{{- if $image.digest }}
{{- printf "%s@%s" $image.repository $image.digest }}
{{- else }}
{{- printf "%s:%s" $image.repository (default $root.Chart.AppVersion $image.tag) }}
{{- end }}
{{- end }}

{{/* The host and the port of an apiServer value "host:port"; an [IPv6] host loses its brackets. */}}
{{- define "podnuma.apiServerHost" -}}
{{- regexReplaceAll ":[0-9]+$" . "" | trimPrefix "[" | trimSuffix "]" }}
{{- end }}
{{- define "podnuma.apiServerPort" -}}
{{- regexFind "[0-9]+$" . }}
{{- end }}

{{/*
The operator's settings file (operator/README.md lists the keys). Keys are kept in one place so the ConfigMap and
its checksum come from the same text.
*/}}
{{- define "podnuma.operatorSettings" -}}
{{- $a := .Values.agent -}}
namespace: {{ include "podnuma.namespace" . | quote }}
leaderElection: {{ .Values.operator.leaderElection | quote }}
leaseName: {{ include "podnuma.operator.name" . | quote }}
leaseDuration: {{ .Values.operator.leaseDuration | quote }}
renewDeadline: {{ .Values.operator.renewDeadline | quote }}
retryPeriod: {{ .Values.operator.retryPeriod | quote }}
healthPort: {{ .Values.operator.healthPort | quote }}
metricsPort: {{ .Values.operator.metricsPort | quote }}
restoreTimeout: {{ .Values.operator.restoreTimeout | quote }}
errorWindow: {{ .Values.operator.errorWindow | quote }}
logLevel: {{ .Values.operator.logLevel | quote }}
logFormat: {{ .Values.operator.logFormat | quote }}
agentImage: {{ include "podnuma.image" (list . $a.image) | quote }}
agentPullPolicy: {{ $a.image.pullPolicy | quote }}
agentServiceAccount: {{ include "podnuma.agent.serviceAccountName" . | quote }}
agentPriorityClass: {{ $a.priorityClassName | quote }}
maxUnavailable: {{ $a.maxUnavailable | quote }}
agentMetricsPort: {{ $a.metricsPort | quote }}
agentHealthPort: {{ $a.healthPort | quote }}
agentNetwork: {{ $a.network | quote }}
agentLogLevel: {{ $a.logLevel | quote }}
agentLogFormat: {{ $a.logFormat | quote }}
agentCpuRequest: {{ dig "requests" "cpu" "" $a.resources | quote }}
agentMemoryRequest: {{ dig "requests" "memory" "" $a.resources | quote }}
agentMemoryLimit: {{ dig "limits" "memory" "" $a.resources | quote }}
apiServer: {{ $a.apiServer | quote }}
hostSys: {{ $a.hostPaths.sys | quote }}
hostCgroup: {{ $a.hostPaths.cgroup | quote }}
hostStateDir: {{ $a.hostPaths.stateDir | quote }}
kubeletRootDir: {{ $a.hostPaths.kubeletRootDir | quote }}
kubeletConfigFile: {{ $a.hostPaths.kubeletConfigFile | quote }}
agentReconcilePeriod: {{ $a.reconcilePeriod | quote }}
agentPodResourcesSocket: {{ $a.podResourcesSocket | quote }}
agentPinning: {{ $a.pinning | quote }}
agentNriSocket: {{ $a.nriSocket | quote }}
agentNriPluginIndex: {{ $a.nriPluginIndex | quote }}
agentCpusetPartitions: {{ $a.cpusetPartitions | quote }}
agentTolerations: {{- if $a.tolerations }}
{{ toYaml $a.tolerations | indent 2 }}
{{- else }} []
{{- end }}
agentNodeSelector: {{- if $a.nodeSelector }}
{{ toYaml $a.nodeSelector | indent 2 }}
{{- else }} {}
{{- end }}
agentPodLabels: {{- if $a.podLabels }}
{{ toYaml $a.podLabels | indent 2 }}
{{- else }} {}
{{- end }}
agentPodAnnotations: {{- if $a.podAnnotations }}
{{ toYaml $a.podAnnotations | indent 2 }}
{{- else }} {}
{{- end }}
{{- /* Only when set, so a chart without them writes the file (and its checksum) as before. */}}
{{- with $a.extraEnv }}
agentExtraEnv:
{{ toYaml . | indent 2 }}
{{- end }}
{{- with $a.extraArgs }}
agentExtraArgs:
{{ toYaml . | indent 2 }}
{{- end }}
{{- with $a.affinity }}
agentAffinity:
{{ toYaml . | indent 2 }}
{{- end }}
{{ include "podnuma.monitoring.operatorSettings" . }}
{{- end }}

{{/* Checks across values that the schema cannot express; each failure says what to change. */}}
{{- define "podnuma.validate" -}}
{{- if and (gt (int .Values.operator.replicas) 1) (not .Values.operator.leaderElection) }}
{{- fail (printf "operator.replicas is %d but operator.leaderElection is false: several replicas need leader election (set operator.leaderElection=true or operator.replicas=1)" (int .Values.operator.replicas)) }}
{{- end }}
{{- if eq (int .Values.operator.healthPort) (int .Values.operator.metricsPort) }}
{{- fail (printf "operator.healthPort and operator.metricsPort are both %d: they must differ" (int .Values.operator.healthPort)) }}
{{- end }}
{{- if eq (int .Values.agent.healthPort) (int .Values.agent.metricsPort) }}
{{- fail (printf "agent.healthPort and agent.metricsPort are both %d: they must differ" (int .Values.agent.healthPort)) }}
{{- end }}
{{- range $key, $value := .Values.agent.securityContext }}
{{- fail (printf "agent.securityContext.%s is set (%v): the agent's securityContext is not a value. The operator fixes it (not privileged, no privilege escalation, read-only root filesystem, every capability dropped, root for the host's root-owned cgroup files, seccomp RuntimeDefault: all it needs, node-agent/docs/behaviour.md) and the DaemonSet admission policy refuses a weaker one; remove agent.securityContext" $key $value) }}
{{- end }}
{{- range .Values.agent.extraEnv }}
{{- if or (hasPrefix "PODNUMA_" .name) (has .name (list "KUBERNETES_SERVICE_HOST" "KUBERNETES_SERVICE_PORT")) }}
{{- fail (printf "agent.extraEnv sets %s: the operator sets the agent's PODNUMA_* settings in its config file and KUBERNETES_SERVICE_HOST/PORT from agent.apiServer; set those values instead" .name) }}
{{- end }}
{{- end }}
{{- with .Values.metrics.secure }}
{{- if and .certSecret (not .enabled) }}
{{- fail "metrics.secure.certSecret is set but metrics.secure.enabled is false: set metrics.secure.enabled=true to serve /metrics over https, or leave certSecret empty" }}
{{- end }}
{{- $ttl := .authCacheTtl | toString }}
{{- $n := regexFind "^[0-9]+" $ttl | int64 }}
{{- $ms := ternary $n (ternary (mul $n 1000) (mul $n 60000) (hasSuffix "s" $ttl)) (hasSuffix "ms" $ttl) }}
{{- if gt (int64 $ms) 600000 }}
{{- fail (printf "metrics.secure.authCacheTtl is %s: allowed 0s to 10m (the processes reuse a token's answer at most that long)" $ttl) }}
{{- end }}
{{- end }}
{{- end }}
