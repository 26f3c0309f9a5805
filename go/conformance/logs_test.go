// logs_test.go owns conformance check (d): our eth_getLogs layout
// (docs/spec/zap-logs.md) read by zap-proto/go v1.3.0's accessors alone —
// the list slot, List.Object(k, 88) for log k, its inline fields and its two
// tails. The vector docs/spec/vectors/logs_resp_n2.hex against the values the
// spec prints, and a live `zapbench serve` answer of N = 1 000 against the
// same server's JSON answer to the same request, field by field.
package conformance

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"testing"

	zap "github.com/zap-proto/go"

	"zapbench/go/internal/httpcheck"
	"zapbench/go/internal/vectors"
)

// The record's layout (docs/spec/zap-logs.md): a Log is 88 bytes.
const (
	logStride     = 88
	logTopicBytes = 32
)

// zapLog is one log as zap-proto/go reads it.
type zapLog struct {
	BlockNumber      uint64
	TransactionIndex uint32
	LogIndex         uint32
	Address          []byte
	Removed          bool
	TransactionHash  []byte
	Topics           [][]byte
	Data             []byte
}

// readLogs reads a LogsResponse with zap-proto/go, refusing what the spec
// says a reader must refuse.
func readLogs(data []byte) ([]zapLog, error) {
	m, err := zap.Parse(data)
	if err != nil {
		return nil, err
	}
	list := m.Root().List(0)
	n := list.Len()
	if 24+logStride*n > m.Size() {
		return nil, fmt.Errorf("%d logs of %d bytes pass the message's %d bytes", n, logStride, m.Size())
	}
	logs := make([]zapLog, n)
	for k := range logs {
		o := list.Object(k, logStride)
		topics := o.Bytes(72)
		if len(topics)%logTopicBytes != 0 || len(topics) > 4*logTopicBytes {
			return nil, fmt.Errorf("log %d: topics of %d bytes", k, len(topics))
		}
		l := zapLog{BlockNumber: o.Uint64(0), TransactionIndex: o.Uint32(8), LogIndex: o.Uint32(12),
			Address: o.BytesFixed(16, 20), Removed: o.Bool(36), TransactionHash: o.BytesFixed(40, 32), Data: o.Bytes(80)}
		for t := 0; t < len(topics); t += logTopicBytes {
			l.Topics = append(l.Topics, topics[t:t+logTopicBytes])
		}
		logs[k] = l
	}
	return logs, nil
}

// jsonLog is the JSON answer's log (hex quantities and bytes).
type jsonLog struct {
	Address          string   `json:"address"`
	Topics           []string `json:"topics"`
	Data             string   `json:"data"`
	BlockNumber      string   `json:"blockNumber"`
	TransactionHash  string   `json:"transactionHash"`
	TransactionIndex string   `json:"transactionIndex"`
	LogIndex         string   `json:"logIndex"`
	Removed          bool     `json:"removed"`
}

func hexBytes(b []byte) string { return "0x" + hex.EncodeToString(b) }
func quantity(v uint64) string { return "0x" + strconv.FormatUint(v, 16) }

// same compares a log read from ZAP with the JSON answer's, every field.
func same(z zapLog, j jsonLog) error {
	topics := make([]string, len(z.Topics))
	for i, t := range z.Topics {
		topics[i] = hexBytes(t)
	}
	got := jsonLog{Address: hexBytes(z.Address), Topics: topics, Data: hexBytes(z.Data), BlockNumber: quantity(z.BlockNumber),
		TransactionHash: hexBytes(z.TransactionHash), TransactionIndex: quantity(uint64(z.TransactionIndex)),
		LogIndex: quantity(uint64(z.LogIndex)), Removed: z.Removed}
	if j.Topics == nil {
		j.Topics = []string{}
	}
	if fmt.Sprint(got) != fmt.Sprint(j) {
		return fmt.Errorf("ZAP %+v\nJSON %+v", got, j)
	}
	return nil
}

// logsRequest builds a LogsRequest with zap-proto/go (StartObject(40), the
// four setters) from the vector's values with limit n.
func logsRequest(t *testing.T, n uint32) (zapReq []byte, jsonReq string) {
	vec := vectors.MustRepo(t, "logs_req.hex")
	m, err := zap.Parse(vec)
	if err != nil {
		t.Fatalf("logs_req.hex: %v", err)
	}
	r := m.Root()
	from, to, addr := r.Uint64(0), r.Uint64(8), append([]byte(nil), r.BytesFixed(16, 20)...)
	b := zap.NewBuilder(64)
	o := b.StartObject(40)
	o.SetUint64(0, from)
	o.SetUint64(8, to)
	o.SetBytesFixed(16, addr)
	o.SetUint32(36, 2)
	o.FinishAsRoot()
	if built := b.Finish(); !bytes.Equal(built, vec) {
		t.Fatalf("zap-proto/go builds logs_req.hex as %x, want %x", built, vec)
	}
	b = zap.NewBuilder(64)
	o = b.StartObject(40)
	o.SetUint64(0, from)
	o.SetUint64(8, to)
	o.SetBytesFixed(16, addr)
	o.SetUint32(36, n)
	o.FinishAsRoot()
	return append([]byte(nil), b.Finish()...),
		fmt.Sprintf(`{"fromBlock":"%s","toBlock":"%s","address":"%s","limit":"%s"}`, quantity(from), quantity(to), hexBytes(addr), quantity(uint64(n)))
}

// TestZapProtoGoReadsLogsVector: logs_resp_n2.hex, the values the spec prints.
func TestZapProtoGoReadsLogsVector(t *testing.T) {
	logs, err := readLogs(vectors.MustRepo(t, "logs_resp_n2.hex"))
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		block             uint64
		txIndex, logIndex uint32
		topics, data      int
	}{{0x112a880, 107, 0, 3, 32}, {0x112aa73, 257, 1, 2, 42}}
	if len(logs) != len(want) {
		t.Fatalf("%d logs, want 2", len(logs))
	}
	for k, w := range want {
		l := logs[k]
		if l.BlockNumber != w.block || l.TransactionIndex != w.txIndex || l.LogIndex != w.logIndex ||
			len(l.Topics) != w.topics || len(l.Data) != w.data || l.Removed ||
			hexBytes(l.Address) != "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48" {
			t.Errorf("log %d: %+v, want %+v", k, l, w)
		}
	}
	if hexBytes(logs[0].Topics[0])[:10] != "0xddf252ad" || hexBytes(logs[0].TransactionHash)[:10] != "0xeab226bd" {
		t.Errorf("log 0: topic 0 %x, transactionHash %x", logs[0].Topics[0], logs[0].TransactionHash)
	}
}

// TestZapProtoGoReadsLiveLogs: a live answer of N = 1 000 from `zapbench
// serve`, read by zap-proto/go, equals the same server's JSON answer.
func TestZapProtoGoReadsLiveLogs(t *testing.T) {
	s, base, hc := cppServer(t)
	const n = 1000
	zreq, jreq := logsRequest(t, n)
	resp, zout := httpcheck.Do(t, hc, "POST", base+"/logs", "application/zap", zreq)
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/zap" {
		t.Fatalf("/logs ZAP: %d %q %.200s", resp.StatusCode, resp.Header.Get("Content-Type"), zout)
	}
	resp, jout := httpcheck.Do(t, hc, "POST", base+"/logs", "application/json", []byte(jreq))
	if resp.StatusCode != 200 {
		t.Fatalf("/logs JSON %s: %d %.200s", jreq, resp.StatusCode, jout)
	}
	logs, err := readLogs(zout)
	if err != nil {
		t.Fatalf("zap-proto/go reading the answer: %v", err)
	}
	var want []jsonLog
	if err := json.Unmarshal(jout, &want); err != nil {
		t.Fatalf("the JSON answer: %v", err)
	}
	if len(logs) != n || len(want) != n {
		t.Fatalf("%d logs in ZAP, %d in JSON, want %d", len(logs), len(want), n)
	}
	bad := 0
	for k := range logs {
		if err := same(logs[k], want[k]); err != nil {
			if bad++; bad <= 3 {
				t.Errorf("log %d:\n%v", k, err)
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d logs differ", bad, n)
	}
	hc.Transport.(*http.Transport).CloseIdleConnections()
	if err := s.Terminate(); err != nil {
		t.Errorf("SIGTERM: %v\n%s", err, s.Output())
	}
}
