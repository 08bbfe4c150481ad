package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/containerd/nri/pkg/adaptation"
	"github.com/containerd/nri/pkg/api"
	nrilog "github.com/containerd/nri/pkg/log"
	"google.golang.org/protobuf/proto"
)

type serveConfig struct {
	socket              string
	requestTimeout      time.Duration
	registrationTimeout time.Duration
	runtimeName         string
	runtimeVersion      string
}

// command is one stdin line; which fields matter depends on op.
type command struct {
	Op             string          `json:"op"`
	Count          int             `json:"count"`
	Registrations  int             `json:"registrations"`
	Without        []string        `json:"without"`
	TimeoutMs      int64           `json:"timeoutMs"`
	Pod            json.RawMessage `json:"pod"`
	Container      json.RawMessage `json:"container"`
	LinuxResources json.RawMessage `json:"linuxResources"`
}

type harness struct {
	nri      *adaptation.Adaptation
	state    *runtimeState
	registry *pluginRegistry
	updates  *updateLog
	out      *lineWriter
}

func serve(cfg serveConfig, in io.Reader, out io.Writer) error {
	registry := newPluginRegistry()
	nrilog.Set(hookLogger{registry: registry})
	// Package-level settings in the adaptation: one runtime per process, as in containerd.
	adaptation.SetPluginRequestTimeout(cfg.requestTimeout)
	adaptation.SetPluginRegistrationTimeout(cfg.registrationTimeout)

	h := &harness{
		state:    newRuntimeState(),
		registry: registry,
		updates:  &updateLog{},
		out:      &lineWriter{w: out},
	}
	// No pre-installed plugins: the plugin directory is an empty one of our own, never /opt/nri/plugins.
	emptyDir, err := os.MkdirTemp("", "nriruntime-plugins-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(emptyDir)
	options := append([]adaptation.Option{
		adaptation.WithSocketPath(cfg.socket),
		adaptation.WithPluginPath(emptyDir),
		adaptation.WithPluginConfigPath(filepath.Join(emptyDir, "conf.d")),
	}, versionOptions(registry)...)
	h.nri, err = adaptation.New(cfg.runtimeName, cfg.runtimeVersion, h.synchronize, h.unsolicitedUpdates, options...)
	if err != nil {
		return err
	}
	if err := h.nri.Start(); err != nil {
		return fmt.Errorf("cannot start the NRI adaptation on %s: %w", cfg.socket, err)
	}
	fmt.Fprintf(os.Stderr, "nriruntime: listening on %s (request timeout %s, registration timeout %s)\n",
		cfg.socket, cfg.requestTimeout, cfg.registrationTimeout)

	lines := bufio.NewScanner(in)
	lines.Buffer(make([]byte, 64*1024), 256<<20)
	for lines.Scan() {
		if len(lines.Bytes()) == 0 {
			continue
		}
		var c command
		if err := json.Unmarshal(lines.Bytes(), &c); err != nil {
			h.out.write(failure("malformed command: " + err.Error()))
			continue
		}
		if c.Op == "stop" {
			h.nri.Stop()
			h.out.write(map[string]any{"ok": true})
			return nil
		}
		h.out.write(h.handle(c))
	}
	// stdin closed: the test JVM is gone (or closed us); a runtime without a driver has nothing left to do.
	h.nri.Stop()
	if err := lines.Err(); err != nil {
		return fmt.Errorf("reading commands: %w", err)
	}
	return nil
}

func failure(msg string) map[string]any {
	return map[string]any{"ok": false, "error": msg}
}

func (h *harness) handle(c command) map[string]any {
	switch c.Op {
	case "await-plugins":
		return h.awaitPlugins(c)
	case "add-pod":
		return h.withPod(c, func(pod *api.PodSandbox) map[string]any {
			h.state.putPod(pod)
			return map[string]any{"ok": true}
		})
	case "add-container":
		return h.withPodAndContainer(c, func(pod *api.PodSandbox, ctr *api.Container) map[string]any {
			h.state.putPod(pod)
			h.state.putContainer(ctr)
			return map[string]any{"ok": true}
		})
	case "add-containers":
		return h.withPodAndContainer(c, func(pod *api.PodSandbox, ctr *api.Container) map[string]any {
			h.state.putPod(pod)
			h.state.putCopies(ctr, c.Count)
			// bytesEach: the copy's protobuf size, what the 4 MiB ttrpc limit on a sync message counts
			return map[string]any{"ok": true, "containers": h.state.containerCount(), "bytesEach": proto.Size(ctr)}
		})
	case "run-pod":
		return h.withPod(c, func(pod *api.PodSandbox) map[string]any {
			h.state.putPod(pod)
			return h.timed(func(ctx context.Context) (map[string]any, error) {
				return map[string]any{}, relayRunPod(ctx, h.nri, pod)
			})
		})
	case "stop-pod":
		return h.withPod(c, func(pod *api.PodSandbox) map[string]any {
			return h.timed(func(ctx context.Context) (map[string]any, error) {
				return map[string]any{}, relayStopPod(ctx, h.nri, pod)
			})
		})
	case "remove-pod":
		return h.withPod(c, func(pod *api.PodSandbox) map[string]any {
			r := h.timed(func(ctx context.Context) (map[string]any, error) {
				return map[string]any{}, relayRemovePod(ctx, h.nri, pod)
			})
			h.state.removePod(pod.GetId())
			return r
		})
	case "create-container":
		return h.withPodAndContainer(c, h.createContainer)
	case "start-container":
		return h.withPodAndContainer(c, func(pod *api.PodSandbox, ctr *api.Container) map[string]any {
			r := h.timed(func(ctx context.Context) (map[string]any, error) {
				return map[string]any{}, relayStartContainer(ctx, h.nri, pod, ctr)
			})
			h.state.setContainerState(ctr.GetId(), api.ContainerState_CONTAINER_RUNNING)
			return r
		})
	case "update-container":
		return h.withPodAndContainer(c, func(pod *api.PodSandbox, ctr *api.Container) map[string]any {
			resources := &api.LinuxResources{}
			if err := fromJSON(c.LinuxResources, resources); err != nil {
				return failure("linuxResources: " + err.Error())
			}
			return h.timed(func(ctx context.Context) (map[string]any, error) {
				rsp, err := h.nri.UpdateContainer(ctx, &api.UpdateContainerRequest{
					Pod: pod, Container: ctr, LinuxResources: resources})
				if err != nil {
					return nil, err
				}
				h.state.applyUpdates(rsp.GetUpdate())
				// As containerd does once it applied the update.
				if err := relayPostUpdateContainer(ctx, h.nri, pod, ctr); err != nil {
					return nil, err
				}
				return map[string]any{"response": protoJSON(rsp)}, nil
			})
		})
	case "stop-container":
		return h.withPodAndContainer(c, func(pod *api.PodSandbox, ctr *api.Container) map[string]any {
			r := h.timed(func(ctx context.Context) (map[string]any, error) {
				rsp, err := h.nri.StopContainer(ctx, &api.StopContainerRequest{Pod: pod, Container: ctr})
				if err != nil {
					return nil, err
				}
				h.state.applyUpdates(rsp.GetUpdate())
				return map[string]any{"response": protoJSON(rsp)}, nil
			})
			h.state.setContainerState(ctr.GetId(), api.ContainerState_CONTAINER_STOPPED)
			return r
		})
	case "remove-container":
		return h.withPodAndContainer(c, func(pod *api.PodSandbox, ctr *api.Container) map[string]any {
			r := h.timed(func(ctx context.Context) (map[string]any, error) {
				return map[string]any{}, relayRemoveContainer(ctx, h.nri, pod, ctr)
			})
			h.state.removeContainer(ctr.GetId())
			return r
		})
	case "updates":
		return map[string]any{"ok": true, "updates": protoJSONList(h.updates.drain())}
	case "state":
		pods, ctrs := h.state.snapshot()
		return map[string]any{"ok": true, "pods": protoJSONList(pods), "containers": protoJSONList(ctrs)}
	default:
		return failure(fmt.Sprintf("unknown op %q", c.Op))
	}
}

func (h *harness) awaitPlugins(c command) map[string]any {
	timeout := time.Duration(c.TimeoutMs) * time.Millisecond
	if timeout <= 0 {
		timeout = 10 * time.Second
	}
	v, met := h.registry.await(c.Count, c.Registrations, c.Without, timeout)
	answer := map[string]any{"ok": met, "plugins": v.plugins, "registrations": v.registrations}
	if !met {
		answer["error"] = fmt.Sprintf("after %s: connected %v (wanted %d, none of %v), %d syncs succeeded (wanted %d)",
			timeout, v.plugins, c.Count, c.Without, v.succeeded, c.Registrations)
	}
	return answer
}

func (h *harness) createContainer(pod *api.PodSandbox, ctr *api.Container) map[string]any {
	return h.timed(func(ctx context.Context) (map[string]any, error) {
		rsp, err := h.nri.CreateContainer(ctx, &api.CreateContainerRequest{Pod: pod, Container: ctr})
		if err != nil {
			return nil, err
		}
		h.state.putPodIfAbsent(pod)
		h.state.putContainer(created(ctr, rsp.GetAdjust()))
		h.state.applyUpdates(rsp.GetUpdate())
		return map[string]any{"response": protoJSON(rsp)}, nil
	})
}

// timed runs one runtime event the way a runtime does (plugin sync blocked meanwhile, so a plugin registering
// concurrently sees the container either in its sync or in this event) and adds durationNanos to the answer.
func (h *harness) timed(event func(context.Context) (map[string]any, error)) map[string]any {
	block := h.nri.BlockPluginSync()
	start := time.Now()
	answer, err := event(context.Background())
	took := time.Since(start)
	block.Unblock()
	if err != nil {
		answer = failure(err.Error())
	} else {
		answer["ok"] = true
	}
	answer["durationNanos"] = took.Nanoseconds()
	return answer
}

func (h *harness) withPod(c command, then func(*api.PodSandbox) map[string]any) map[string]any {
	pod := &api.PodSandbox{}
	if len(c.Pod) == 0 {
		return failure(c.Op + ": no pod")
	}
	if err := fromJSON(c.Pod, pod); err != nil {
		return failure(c.Op + ": pod: " + err.Error())
	}
	return then(pod)
}

func (h *harness) withPodAndContainer(c command, then func(*api.PodSandbox, *api.Container) map[string]any) map[string]any {
	return h.withPod(c, func(pod *api.PodSandbox) map[string]any {
		ctr := &api.Container{}
		if len(c.Container) == 0 {
			return failure(c.Op + ": no container")
		}
		if err := fromJSON(c.Container, ctr); err != nil {
			return failure(c.Op + ": container: " + err.Error())
		}
		return then(pod, ctr)
	})
}

// synchronize is the runtime's SyncFn: the adaptation calls it for each newly connected plugin, under its sync lock.
func (h *harness) synchronize(ctx context.Context, cb adaptation.SyncCB) error {
	pods, ctrs := h.state.snapshot()
	h.registry.beginSync(len(pods), len(ctrs))
	updates, err := cb(ctx, pods, ctrs)
	h.registry.endSync(updates, err)
	if err == nil {
		h.state.applyUpdates(updates)
	}
	return err
}

// unsolicitedUpdates is the runtime's UpdateFn: every update is kept for the test and applied to the state; none
// fails (the harness has no real containers to fail on).
func (h *harness) unsolicitedUpdates(_ context.Context, updates []*api.ContainerUpdate) ([]*api.ContainerUpdate, error) {
	h.state.applyUpdates(updates)
	h.updates.add(updates)
	return nil, nil
}
