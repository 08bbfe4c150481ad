package main

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"time"

	"github.com/containerd/ttrpc"
	"google.golang.org/protobuf/proto"
)

// rawConfig: a "runtime" that speaks no NRI at all, to test a plugin's transport against bytes a real runtime never
// sends (a truncated mux frame, a frame for an unknown conn, an oversized or unknown ttrpc frame, an unknown method).
type rawConfig struct {
	socket    string
	send      []byte
	replyWait time.Duration
}

// runRaw accepts one plugin connection on the socket, waits for the plugin's first frame (its RegisterPlugin),
// writes the bytes as given, reads what the plugin answers for replyWait (each mux frame, and each ttrpc Response on
// conn 1 decoded), closes, and removes the socket. Events are JSON lines on stdout.
func runRaw(cfg rawConfig, out *lineWriter) error {
	if err := os.MkdirAll(filepath.Dir(cfg.socket), 0o700); err != nil {
		return err
	}
	_ = os.Remove(cfg.socket)
	l, err := net.Listen("unix", cfg.socket)
	if err != nil {
		return err
	}
	defer os.Remove(cfg.socket)
	defer l.Close()
	out.write(map[string]any{"event": "listening"})
	conn, err := l.Accept()
	if err != nil {
		return err
	}
	defer conn.Close()
	out.write(map[string]any{"event": "accepted"})
	frames := make(chan muxFrame, 64)
	go readMuxFrames(conn, frames)
	select {
	case f, ok := <-frames:
		if ok {
			out.write(map[string]any{"event": "frame", "conn": f.conn, "bytes": len(f.payload)})
		}
	case <-time.After(5 * time.Second):
		return errors.New("the plugin sent nothing within 5s")
	}
	if _, err := conn.Write(cfg.send); err != nil {
		out.write(map[string]any{"event": "send-failed", "error": err.Error()})
	} else {
		out.write(map[string]any{"event": "sent", "bytes": len(cfg.send)})
	}
	deadline := time.After(cfg.replyWait)
	var conn1 []byte
	for {
		select {
		case f, ok := <-frames:
			if !ok {
				out.write(map[string]any{"event": "closed", "by": "plugin"})
				return nil
			}
			out.write(map[string]any{"event": "frame", "conn": f.conn, "bytes": len(f.payload)})
			if f.conn == 1 {
				conn1 = append(conn1, f.payload...)
				conn1 = decodeResponses(conn1, out)
			}
		case <-deadline:
			out.write(map[string]any{"event": "closed", "by": "us"})
			return nil
		}
	}
}

type muxFrame struct {
	conn    uint32
	payload []byte
}

func readMuxFrames(r io.Reader, frames chan<- muxFrame) {
	defer close(frames)
	var hdr [8]byte
	for {
		if _, err := io.ReadFull(r, hdr[:]); err != nil {
			return
		}
		payload := make([]byte, binary.BigEndian.Uint32(hdr[4:]))
		if _, err := io.ReadFull(r, payload); err != nil {
			return
		}
		frames <- muxFrame{conn: binary.BigEndian.Uint32(hdr[:4]), payload: payload}
	}
}

// decodeResponses prints each whole ttrpc Response frame at the start of buf and returns the rest.
func decodeResponses(buf []byte, out *lineWriter) []byte {
	for len(buf) >= 10 {
		n := int(binary.BigEndian.Uint32(buf[:4]))
		if len(buf) < 10+n {
			return buf
		}
		stream, typ, data := binary.BigEndian.Uint32(buf[4:8]), buf[8], buf[10:10+n]
		buf = buf[10+n:]
		ev := map[string]any{"event": "ttrpc", "stream": stream, "type": typ}
		if typ == 2 {
			rsp := &ttrpc.Response{}
			if err := proto.Unmarshal(data, rsp); err != nil {
				ev["error"] = err.Error()
			} else {
				ev["code"] = rsp.GetStatus().GetCode()
				ev["message"] = rsp.GetStatus().GetMessage()
			}
		}
		out.write(ev)
	}
	return buf
}

func rawCommand(args []string) error {
	fs := flag.NewFlagSet("raw-runtime", flag.ContinueOnError)
	cfg := rawConfig{}
	var send string
	fs.StringVar(&cfg.socket, "socket", "", "the socket to listen on")
	fs.StringVar(&send, "send", "", "the bytes to write, hex")
	fs.DurationVar(&cfg.replyWait, "reply-wait", 500*time.Millisecond, "how long to read the plugin's answer")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if cfg.socket == "" {
		return errors.New("raw-runtime: --socket is required")
	}
	var err error
	if cfg.send, err = hex.DecodeString(send); err != nil {
		return fmt.Errorf("raw-runtime: --send: %w", err)
	}
	return runRaw(cfg, &lineWriter{w: os.Stdout})
}
