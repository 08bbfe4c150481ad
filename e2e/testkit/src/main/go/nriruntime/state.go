package main

import (
	"fmt"
	"sort"
	"sync"

	"github.com/containerd/nri/pkg/api"
	"google.golang.org/protobuf/proto"
)

// runtimeState is what the runtime knows: the pods and containers a newly connected plugin's Synchronize gets.
// Stored messages are never changed in place (a sync may be marshalling them): a change stores a new copy.
type runtimeState struct {
	mu   sync.Mutex
	pods map[string]*api.PodSandbox
	ctrs map[string]*api.Container
}

func newRuntimeState() *runtimeState {
	return &runtimeState{pods: map[string]*api.PodSandbox{}, ctrs: map[string]*api.Container{}}
}

func (s *runtimeState) putPod(pod *api.PodSandbox) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pods[pod.GetId()] = pod
}

func (s *runtimeState) putPodIfAbsent(pod *api.PodSandbox) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.pods[pod.GetId()]; !ok {
		s.pods[pod.GetId()] = pod
	}
}

func (s *runtimeState) removePod(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.pods, id)
}

func (s *runtimeState) putContainer(ctr *api.Container) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ctrs[ctr.GetId()] = ctr
}

// putCopies stores n copies of template with ids <template id>-<i>: a large state for a split sync.
func (s *runtimeState) putCopies(template *api.Container, n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := 0; i < n; i++ {
		c := proto.Clone(template).(*api.Container)
		c.Id = fmt.Sprintf("%s-%d", template.GetId(), i)
		s.ctrs[c.Id] = c
	}
}

func (s *runtimeState) containerCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.ctrs)
}

func (s *runtimeState) removeContainer(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.ctrs, id)
}

func (s *runtimeState) setContainerState(id string, state api.ContainerState) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c, ok := s.ctrs[id]; ok {
		c = proto.Clone(c).(*api.Container)
		c.State = state
		s.ctrs[id] = c
	}
}

// applyUpdates does to the stored containers what a runtime does to the real ones: here only the cpuset, which is
// what a resynchronizing plugin reads back.
func (s *runtimeState) applyUpdates(updates []*api.ContainerUpdate) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, u := range updates {
		c, ok := s.ctrs[u.GetContainerId()]
		if !ok {
			continue
		}
		s.ctrs[c.GetId()] = withCpuset(c, u.GetLinux().GetResources().GetCpu())
	}
}

// snapshot is the pods and containers sorted by id, as a runtime lists them for a sync.
func (s *runtimeState) snapshot() ([]*api.PodSandbox, []*api.Container) {
	s.mu.Lock()
	defer s.mu.Unlock()
	pods := make([]*api.PodSandbox, 0, len(s.pods))
	for _, p := range s.pods {
		pods = append(pods, p)
	}
	sort.Slice(pods, func(i, j int) bool { return pods[i].GetId() < pods[j].GetId() })
	ctrs := make([]*api.Container, 0, len(s.ctrs))
	for _, c := range s.ctrs {
		ctrs = append(ctrs, c)
	}
	sort.Slice(ctrs, func(i, j int) bool { return ctrs[i].GetId() < ctrs[j].GetId() })
	return pods, ctrs
}

// created is the container as the runtime created it: state CREATED, the adjustment's cpuset applied.
func created(ctr *api.Container, adjust *api.ContainerAdjustment) *api.Container {
	c := withCpuset(ctr, adjust.GetLinux().GetResources().GetCpu())
	c.State = api.ContainerState_CONTAINER_CREATED
	return c
}

// withCpuset is a copy of ctr with the cpus/mems that cpu sets (none: an unchanged copy).
func withCpuset(ctr *api.Container, cpu *api.LinuxCPU) *api.Container {
	c := proto.Clone(ctr).(*api.Container)
	if cpu.GetCpus() == "" && cpu.GetMems() == "" {
		return c
	}
	if c.Linux == nil {
		c.Linux = &api.LinuxContainer{}
	}
	if c.Linux.Resources == nil {
		c.Linux.Resources = &api.LinuxResources{}
	}
	if c.Linux.Resources.Cpu == nil {
		c.Linux.Resources.Cpu = &api.LinuxCPU{}
	}
	if cpu.GetCpus() != "" {
		c.Linux.Resources.Cpu.Cpus = cpu.GetCpus()
	}
	if cpu.GetMems() != "" {
		c.Linux.Resources.Cpu.Mems = cpu.GetMems()
	}
	return c
}

// updateLog keeps the unsolicited UpdateContainers requests of the plugins until a test reads them.
type updateLog struct {
	mu      sync.Mutex
	pending []*api.ContainerUpdate
}

func (l *updateLog) add(updates []*api.ContainerUpdate) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.pending = append(l.pending, updates...)
}

func (l *updateLog) drain() []*api.ContainerUpdate {
	l.mu.Lock()
	defer l.mu.Unlock()
	drained := l.pending
	l.pending = nil
	return drained
}
