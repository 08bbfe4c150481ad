// Command nriruntime is the runtime side of NRI for tests: a container runtime stand-in built on the upstream
// adaptation library (github.com/containerd/nri/pkg/adaptation, the code containerd and CRI-O embed), driven by
// JSON-lines commands on stdin, one JSON line answered on stdout per command; logs go to stderr. Its second
// subcommand is a reference plugin on the upstream stub library (pkg/stub), used to test the harness itself.
// The test kit builds and runs both (io.podnuma.testkit.nri.NriRuntimeHarness, NriStubPlugin).
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"time"
)

const usage = `usage:
  nriruntime serve --socket <path> [--request-timeout 2s] [--registration-timeout 5s]
                   [--runtime-name containerd] [--runtime-version v2.4.2]
      an NRI runtime listening on <path>; JSON-lines commands on stdin (see README of the test kit)
  nriruntime stub-plugin --socket <path> [--index 90] [--name gostub] [--cpus 1] [--mems 0] [--delay 0s]
      the upstream stub plugin answering every CreateContainer with cpuset cpus/mems; events on stdout
  nriruntime raw-runtime --socket <path> --send <hex> [--reply-wait 500ms]
      no NRI: accepts one plugin, writes the bytes after its first frame, prints what it answers, closes`

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "nriruntime:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) == 0 {
		return errors.New(usage)
	}
	switch args[0] {
	case "serve":
		return serveCommand(args[1:])
	case "stub-plugin":
		return stubCommand(args[1:])
	case "raw-runtime":
		return rawCommand(args[1:])
	default:
		return errors.New(usage)
	}
}

func serveCommand(args []string) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	cfg := serveConfig{}
	fs.StringVar(&cfg.socket, "socket", "", "the NRI socket to listen on")
	fs.DurationVar(&cfg.requestTimeout, "request-timeout", 2*time.Second, "per-request plugin timeout")
	fs.DurationVar(&cfg.registrationTimeout, "registration-timeout", 5*time.Second, "plugin registration timeout")
	fs.StringVar(&cfg.runtimeName, "runtime-name", "containerd", "runtime name sent in Configure")
	fs.StringVar(&cfg.runtimeVersion, "runtime-version", "v2.4.2", "runtime version sent in Configure")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if cfg.socket == "" {
		return errors.New("serve: --socket is required")
	}
	return serve(cfg, os.Stdin, os.Stdout)
}

func stubCommand(args []string) error {
	fs := flag.NewFlagSet("stub-plugin", flag.ContinueOnError)
	cfg := stubConfig{}
	fs.StringVar(&cfg.socket, "socket", "", "the runtime's NRI socket")
	fs.StringVar(&cfg.index, "index", "90", "the plugin index (two digits)")
	fs.StringVar(&cfg.name, "name", "gostub", "the plugin name")
	fs.StringVar(&cfg.cpus, "cpus", "1", "cpuset cpus set on every created container")
	fs.StringVar(&cfg.mems, "mems", "0", "cpuset mems set on every created container")
	fs.DurationVar(&cfg.delay, "delay", 0, "how long CreateContainer sleeps before answering")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if cfg.socket == "" {
		return errors.New("stub-plugin: --socket is required")
	}
	return runStub(cfg, os.Stdin, os.Stdout)
}
