package main

// What differs in nri v0.8 (containerd 1.7.26+, 2.0 and 2.1): no Metrics interface, so Synchronize messages are
// counted from the adaptation's debug log; no dedicated event RPCs, so every event without one (pod events, start,
// remove) is relayed as a StateChangeEvent, which the adaptation sends to plugins as StateChange. Every other file
// of this module is a link to ../nriruntime, the v0.12 harness.

import (
	"context"

	"github.com/containerd/nri/pkg/adaptation"
	"github.com/containerd/nri/pkg/api"
	"github.com/containerd/nri/pkg/stub"
)

// syncFromLog: the adaptation has no Metrics; the debug log line before each Synchronize message counts it.
const syncFromLog = true

func versionOptions(*pluginRegistry) []adaptation.Option {
	return nil
}

// stubLogOptions: v0.8's stub has no logger option; it logs through pkg/log, to stderr as well.
func stubLogOptions() []stub.Option {
	return nil
}

func relayRunPod(ctx context.Context, nri *adaptation.Adaptation, pod *api.PodSandbox) error {
	return nri.RunPodSandbox(ctx, &api.StateChangeEvent{Event: api.Event_RUN_POD_SANDBOX, Pod: pod})
}

func relayStopPod(ctx context.Context, nri *adaptation.Adaptation, pod *api.PodSandbox) error {
	return nri.StopPodSandbox(ctx, &api.StateChangeEvent{Event: api.Event_STOP_POD_SANDBOX, Pod: pod})
}

func relayRemovePod(ctx context.Context, nri *adaptation.Adaptation, pod *api.PodSandbox) error {
	return nri.RemovePodSandbox(ctx, &api.StateChangeEvent{Event: api.Event_REMOVE_POD_SANDBOX, Pod: pod})
}

func relayStartContainer(ctx context.Context, nri *adaptation.Adaptation, pod *api.PodSandbox, ctr *api.Container) error {
	return nri.StartContainer(ctx, &api.StateChangeEvent{Event: api.Event_START_CONTAINER, Pod: pod, Container: ctr})
}

func relayPostUpdateContainer(ctx context.Context, nri *adaptation.Adaptation, pod *api.PodSandbox, ctr *api.Container) error {
	return nri.PostUpdateContainer(ctx, &api.StateChangeEvent{Event: api.Event_POST_UPDATE_CONTAINER, Pod: pod, Container: ctr})
}

func relayRemoveContainer(ctx context.Context, nri *adaptation.Adaptation, pod *api.PodSandbox, ctr *api.Container) error {
	return nri.RemoveContainer(ctx, &api.StateChangeEvent{Event: api.Event_REMOVE_CONTAINER, Pod: pod, Container: ctr})
}
