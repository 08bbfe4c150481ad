package main

import (
	"encoding/json"
	"fmt"
	"os"
)

// Inputs mirrors the file io.podnuma.bench.InputsExport writes.
type Inputs struct {
	Machine struct {
		// CPUs lists every online CPU as [cpu, socket, numaNode, core, uncoreCache]; core is the
		// machine-unique core id (the lowest SMT sibling).
		CPUs [][5]int `json:"cpus"`
	} `json:"machine"`
	TopologyManagerPolicy string `json:"topologyManagerPolicy"`
	ReservedCount         int    `json:"reservedCount"`
	// Container is the name of every container; BenchPod the pod a scenario admits and removes.
	Container   string       `json:"container"`
	BenchPod    string       `json:"benchPod"`
	Load        []LoadOp     `json:"load"`
	Allocations []Allocation `json:"allocations"`
	Merges      []Merge      `json:"merges"`
	Simulate    Simulate     `json:"simulate"`
}

// Simulate is the 110-pod admission workload with podnuma's final shared pool.
type Simulate struct {
	ID   string `json:"id"`
	Pods []struct {
		Name       string `json:"name"`
		CPUs       int    `json:"cpus"`
		Guaranteed bool   `json:"guaranteed"`
	} `json:"pods"`
	ExpectDefault string `json:"expectDefault"`
}

// LoadOp admits a pod of CPUs on one NUMA node, or removes it when CPUs is 0.
type LoadOp struct {
	Pod      string `json:"pod"`
	CPUs     int    `json:"cpus"`
	NUMANode int    `json:"numaNode"`
}

// Allocation is one exclusive-CPU scenario with podnuma's answers.
type Allocation struct {
	ID      string            `json:"id"`
	Options map[string]string `json:"options"`
	Request int               `json:"request"`
	// Hint is the NUMA affinity in list syntax.
	Hint                   string `json:"hint"`
	ExpectDefaultAfterLoad string `json:"expectDefaultAfterLoad"`
	ExpectCPUs             string `json:"expectCpus"`
}

// Merge is one topology-merge shape with podnuma's answer.
type Merge struct {
	ID           string  `json:"id"`
	Description  string  `json:"description"`
	NUMANodes    int     `json:"numaNodes"`
	Permutations float64 `json:"permutations"`
	// Providers holds one hint list per provider, each hint as [mask word, preferred (0/1)].
	Providers [][][2]uint64 `json:"providers"`
	Expect    struct {
		NUMANodes string `json:"numaNodes"`
		Preferred bool   `json:"preferred"`
	} `json:"expect"`
}

func readInputs(path string) (*Inputs, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read the inputs: %v (write them with InputsExport, see scripts/bench)", err)
	}
	var in Inputs
	if err := json.Unmarshal(data, &in); err != nil {
		return nil, fmt.Errorf("%s is not an inputs file: %v", path, err)
	}
	if len(in.Machine.CPUs) == 0 {
		return nil, fmt.Errorf("%s: machine.cpus is empty", path)
	}
	return &in, nil
}
