package main

// What differs between nri versions: this module builds against v0.12 (go.mod), whose adaptation has a Metrics
// interface and dedicated event RPCs. The older-version modules beside it (nriruntime-v0.8) share every other
// file and bring their own copy of this one.

import (
	"context"
	"errors"
	"time"

	"github.com/containerd/nri/pkg/adaptation"
	"github.com/containerd/nri/pkg/api"
	"github.com/containerd/nri/pkg/stub"
	"github.com/containerd/ttrpc"
)

// syncFromLog: Synchronize messages are counted through Metrics, not the debug log.
const syncFromLog = false

func versionOptions(registry *pluginRegistry) []adaptation.Option {
	return []adaptation.Option{adaptation.WithMetrics(registry)}
}

func stubLogOptions() []stub.Option {
	return []stub.Option{stub.WithLogger(stubLogger{})}
}

func relayRunPod(ctx context.Context, nri *adaptation.Adaptation, pod *api.PodSandbox) error {
	return nri.RunPodSandbox(ctx, &api.RunPodSandboxRequest{Pod: pod})
}

func relayStopPod(ctx context.Context, nri *adaptation.Adaptation, pod *api.PodSandbox) error {
	return nri.StopPodSandbox(ctx, &api.StopPodSandboxRequest{Pod: pod})
}

func relayRemovePod(ctx context.Context, nri *adaptation.Adaptation, pod *api.PodSandbox) error {
	return nri.RemovePodSandbox(ctx, &api.RemovePodSandboxRequest{Pod: pod})
}

func relayStartContainer(ctx context.Context, nri *adaptation.Adaptation, pod *api.PodSandbox, ctr *api.Container) error {
	return nri.StartContainer(ctx, &api.StartContainerRequest{Pod: pod, Container: ctr})
}

func relayPostUpdateContainer(ctx context.Context, nri *adaptation.Adaptation, pod *api.PodSandbox, ctr *api.Container) error {
	return nri.PostUpdateContainer(ctx, &api.PostUpdateContainerRequest{Pod: pod, Container: ctr})
}

func relayRemoveContainer(ctx context.Context, nri *adaptation.Adaptation, pod *api.PodSandbox, ctr *api.Container) error {
	return nri.RemoveContainer(ctx, &api.RemoveContainerRequest{Pod: pod, Container: ctr})
}

// RecordPluginInvocation counts the Synchronize messages of the plugin being synchronized.
func (r *pluginRegistry) RecordPluginInvocation(pluginName, operation string, err error) {
	if operation != "Synchronize" {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.syncing == nil {
		return
	}
	r.syncing.Plugin = pluginName
	switch {
	case err == nil:
		r.syncing.SyncMessages++
	case isOversized(err):
		r.syncing.OversizedAttempts++
	}
}

func (r *pluginRegistry) RecordPluginLatency(string, string, time.Duration) {}

func (r *pluginRegistry) RecordPluginAdjustments(string, string, *adaptation.ContainerAdjustment, int, int) {
}

func (r *pluginRegistry) UpdatePluginCount(int) {}

var _ adaptation.Metrics = (*pluginRegistry)(nil)

func isOversized(err error) bool {
	var oversized *ttrpc.OversizedMessageErr
	return errors.As(err, &oversized)
}
