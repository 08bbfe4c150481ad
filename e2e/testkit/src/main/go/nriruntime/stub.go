package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/containerd/nri/pkg/api"
	"github.com/containerd/nri/pkg/stub"
)

type stubConfig struct {
	socket string
	index  string
	name   string
	cpus   string
	mems   string
	delay  time.Duration
}

// referencePlugin is a plugin on the upstream stub: every CreateContainer gets the configured cpuset, every event
// it sees is printed as one JSON line ({"event": ...}) so a test can check what the runtime sent.
type referencePlugin struct {
	cfg  stubConfig
	out  *lineWriter
	stub stub.Stub
}

// stubLogger keeps the stub's own log on stderr; stdout is the event stream.
type stubLogger struct{}

func (stubLogger) Debugf(_ context.Context, f string, a ...any) {}
func (stubLogger) Infof(_ context.Context, f string, a ...any) {
	fmt.Fprintf(os.Stderr, "INFO  stub: %s\n", fmt.Sprintf(f, a...))
}
func (stubLogger) Warnf(_ context.Context, f string, a ...any) {
	fmt.Fprintf(os.Stderr, "WARN  stub: %s\n", fmt.Sprintf(f, a...))
}
func (stubLogger) Errorf(_ context.Context, f string, a ...any) {
	fmt.Fprintf(os.Stderr, "ERROR stub: %s\n", fmt.Sprintf(f, a...))
}

func runStub(cfg stubConfig, in io.Reader, out io.Writer) error {
	p := &referencePlugin{cfg: cfg, out: &lineWriter{w: out}}
	s, err := stub.New(p, append([]stub.Option{
		stub.WithSocketPath(cfg.socket),
		stub.WithPluginIdx(cfg.index),
		stub.WithPluginName(cfg.name),
	}, stubLogOptions()...)...)
	if err != nil {
		return err
	}
	p.stub = s
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// stdin is the test JVM: commands while it lives, EOF when it is gone, and then the plugin stops too.
	go func() {
		p.readCommands(in)
		cancel()
	}()
	err = s.Run(ctx)
	p.out.write(map[string]any{"event": "closed", "error": errorText(err)})
	if err == context.Canceled {
		return nil
	}
	// The runtime closed the connection (it stopped, or dropped us after a timeout): exit like nri-plugins does.
	return nil
}

func errorText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func (p *referencePlugin) readCommands(in io.Reader) {
	lines := bufio.NewScanner(in)
	lines.Buffer(make([]byte, 64*1024), 64<<20)
	for lines.Scan() {
		var c struct {
			Op      string            `json:"op"`
			Updates []json.RawMessage `json:"updates"`
		}
		if err := json.Unmarshal(lines.Bytes(), &c); err != nil {
			p.out.write(map[string]any{"event": "error", "error": "malformed command: " + err.Error()})
			continue
		}
		switch c.Op {
		case "update-containers":
			p.updateContainers(c.Updates)
		default:
			p.out.write(map[string]any{"event": "error", "error": fmt.Sprintf("unknown op %q", c.Op)})
		}
	}
}

func (p *referencePlugin) updateContainers(raw []json.RawMessage) {
	updates := make([]*api.ContainerUpdate, 0, len(raw))
	for _, r := range raw {
		u := &api.ContainerUpdate{}
		if err := fromJSON(r, u); err != nil {
			p.out.write(map[string]any{"event": "error", "error": "update: " + err.Error()})
			return
		}
		updates = append(updates, u)
	}
	failed, err := p.stub.UpdateContainers(updates)
	p.out.write(map[string]any{"event": "update-containers", "failed": protoJSONList(failed), "error": errorText(err)})
}

func (p *referencePlugin) Configure(_ context.Context, _, runtime, version string) (api.EventMask, error) {
	p.out.write(map[string]any{
		"event":                 "configure",
		"runtime":               runtime,
		"version":               version,
		"requestTimeoutMs":      p.stub.RequestTimeout().Milliseconds(),
		"registrationTimeoutMs": p.stub.RegistrationTimeout().Milliseconds(),
	})
	return 0, nil // 0: every event this plugin implements
}

func (p *referencePlugin) Synchronize(_ context.Context, pods []*api.PodSandbox, ctrs []*api.Container) ([]*api.ContainerUpdate, error) {
	podIDs := make([]string, 0, len(pods))
	for _, pod := range pods {
		podIDs = append(podIDs, pod.GetId())
	}
	containers := make([]map[string]string, 0, len(ctrs))
	for _, c := range ctrs {
		cpu := c.GetLinux().GetResources().GetCpu()
		containers = append(containers, map[string]string{"id": c.GetId(), "cpus": cpu.GetCpus(), "mems": cpu.GetMems()})
	}
	p.out.write(map[string]any{"event": "synchronize", "pods": podIDs, "containers": containers})
	return nil, nil
}

func (p *referencePlugin) CreateContainer(_ context.Context, pod *api.PodSandbox, ctr *api.Container) (*api.ContainerAdjustment, []*api.ContainerUpdate, error) {
	p.event("create-container", pod, ctr)
	if p.cfg.delay > 0 {
		time.Sleep(p.cfg.delay) // deliberately deaf to the request's deadline: a slow plugin
	}
	adjust := &api.ContainerAdjustment{}
	adjust.SetLinuxCPUSetCPUs(p.cfg.cpus)
	adjust.SetLinuxCPUSetMems(p.cfg.mems)
	return adjust, nil, nil
}

func (p *referencePlugin) StartContainer(_ context.Context, pod *api.PodSandbox, ctr *api.Container) error {
	p.event("start-container", pod, ctr)
	return nil
}

func (p *referencePlugin) UpdateContainer(_ context.Context, pod *api.PodSandbox, ctr *api.Container, _ *api.LinuxResources) ([]*api.ContainerUpdate, error) {
	p.event("update-container", pod, ctr)
	return nil, nil
}

func (p *referencePlugin) StopContainer(_ context.Context, pod *api.PodSandbox, ctr *api.Container) ([]*api.ContainerUpdate, error) {
	p.event("stop-container", pod, ctr)
	return nil, nil
}

func (p *referencePlugin) RemoveContainer(_ context.Context, pod *api.PodSandbox, ctr *api.Container) error {
	p.event("remove-container", pod, ctr)
	return nil
}

func (p *referencePlugin) RunPodSandbox(_ context.Context, pod *api.PodSandbox) error {
	p.event("run-pod", pod, nil)
	return nil
}

func (p *referencePlugin) StopPodSandbox(_ context.Context, pod *api.PodSandbox) error {
	p.event("stop-pod", pod, nil)
	return nil
}

func (p *referencePlugin) RemovePodSandbox(_ context.Context, pod *api.PodSandbox) error {
	p.event("remove-pod", pod, nil)
	return nil
}

func (p *referencePlugin) event(name string, pod *api.PodSandbox, ctr *api.Container) {
	e := map[string]any{"event": name, "pod": pod.GetId()}
	if ctr != nil {
		e["container"] = ctr.GetId()
	}
	p.out.write(e)
}
