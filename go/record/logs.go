// logs.go owns the eth_getLogs record of the Go arm (docs/spec/zap-logs.md;
// src/record/logs.hpp on the C++ side): the sample request, the generator —
// the same splitmix64 sequence as C++, so one request gives the same logs in
// both — and the answers the read operations must give (DecodeAll's digest,
// AccessOne's pick, ScanField's sum), from the logical values.
package record

import "encoding/binary"

// The record's bounds (as src/record/logs.hpp).
const (
	LogTopicBytes     = 32
	LogMaxTopics      = 4
	logMaxDataBytes   = 256
	LogsMaxCount      = 100_000
	logsFromBlock     = 0x112a880 // 18 000 000
	logsBlocks        = 999
	logsAddressHex    = "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48"
	logsTransferTopic = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef"
)

// LogsRequest asks for Limit logs of Address over [FromBlock, ToBlock].
type LogsRequest struct {
	FromBlock, ToBlock uint64
	Address            [AccountBytes]byte
	Limit              uint32
}

// Log is one log; Topics (0–4 × 32 bytes, back to back) and Data point into
// the storage GenerateLogs made.
type Log struct {
	Address           [AccountBytes]byte
	Topics, Data      []byte
	BlockNumber       uint64
	TxHash            [HashBytes]byte
	TxIndex, LogIndex uint32
	Removed           bool
}

// SampleLogsRequest is the benchmarks' request: n logs of one ERC-20
// contract over 1 000 blocks.
func SampleLogsRequest(n uint32) LogsRequest {
	q := LogsRequest{FromBlock: logsFromBlock, ToBlock: logsFromBlock + logsBlocks, Limit: n}
	copy(q.Address[:], mustRaw(logsAddressHex))
	return q
}

var transferTopic = mustRaw(logsTransferTopic)

type splitMix64 struct{ state uint64 }

func (r *splitMix64) next() uint64 {
	r.state += 0x9e3779b97f4a7c15
	z := r.state
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

func (r *splitMix64) fill(p []byte) {
	var w [8]byte
	for len(p) > 0 {
		binary.LittleEndian.PutUint64(w[:], r.next())
		p = p[copy(p, w[:]):]
	}
}

// GenerateLogs gives the logs q asks for (at most LogsMaxCount): 80% ERC-20
// Transfers (3 topics, a 32-byte amount), the rest 1–4 random topics and
// 0–256 random data bytes, 1 in 64 removed; log i depends only on q and i.
func GenerateLogs(q LogsRequest) []Log {
	n := q.Limit
	if n > LogsMaxCount {
		n = LogsMaxCount
	}
	seed := q.FromBlock*0x9e3779b97f4a7c15 ^ q.ToBlock*0xc2b2ae3d27d4eb4f ^
		binary.LittleEndian.Uint64(q.Address[:8]) ^ uint64(q.Limit)<<40
	var blocks uint64
	if q.ToBlock >= q.FromBlock {
		blocks = q.ToBlock - q.FromBlock
	}
	logs := make([]Log, n)
	for i := uint32(0); i < n; i++ {
		rng := splitMix64{seed ^ uint64(i)*0xd6e8feb86659fd93}
		kind := rng.next()
		transfer := kind%10 < 8
		topics, data := 3, 32
		if !transfer {
			topics, data = 1+int((kind>>8)%LogMaxTopics), int((kind>>16)%(logMaxDataBytes+1))
		}
		l := &logs[i]
		l.Address = q.Address
		buf := make([]byte, topics*LogTopicBytes+data)
		t, d := buf[:topics*LogTopicBytes], buf[topics*LogTopicBytes:]
		if transfer {
			copy(t, transferTopic)
			for k := 1; k < 3; k++ { // from, to: addresses left-padded to 32 bytes
				rng.fill(t[k*LogTopicBytes+12 : (k+1)*LogTopicBytes])
			}
			rng.fill(d[24:]) // an amount below 2^64
		} else {
			rng.fill(t)
			rng.fill(d)
		}
		l.Topics, l.Data = t, d
		l.BlockNumber = q.FromBlock + (blocks/uint64(n))*uint64(i) + (blocks%uint64(n))*uint64(i)/uint64(n)
		rng.fill(l.TxHash[:])
		l.TxIndex = uint32(rng.next() % 300)
		l.LogIndex = i
		l.Removed = rng.next()%64 == 0
	}
	return logs
}

// LogsDigest is DecodeAll's answer: every field of every log folded in one
// order into two sums (src/record/logs.hpp's LogsDigest, the same numbers).
type LogsDigest struct{ Count, A, B uint64 }

func (d *LogsDigest) value(v uint64) {
	d.A += v
	d.B += d.A
}

// fixed folds raw bytes as little-endian 8-byte words, the last zero-padded.
func (d *LogsDigest) fixed(p []byte) {
	for ; len(p) >= 8; p = p[8:] {
		d.A += binary.LittleEndian.Uint64(p)
	}
	if len(p) > 0 {
		var w [8]byte
		copy(w[:], p)
		d.A += binary.LittleEndian.Uint64(w[:])
	}
	d.B += d.A
}

// fold is one log, in the order of logs.hpp's fold().
func (d *LogsDigest) fold(address, topics, data []byte, block uint64, txHash []byte, txIndex, logIndex uint32, removed bool) {
	d.fixed(address)
	d.value(uint64(len(topics) / LogTopicBytes))
	for t := 0; t < len(topics); t += LogTopicBytes {
		d.fixed(topics[t : t+LogTopicBytes])
	}
	d.value(uint64(len(data)))
	d.fixed(data)
	d.value(block)
	d.fixed(txHash)
	d.value(uint64(txIndex))
	d.value(uint64(logIndex))
	r := uint64(0)
	if removed {
		r = 1
	}
	d.value(r)
	d.Count++
}

// DigestOf is the digest of logs from their values.
func DigestOf(logs []Log) LogsDigest {
	var d LogsDigest
	for i := range logs {
		l := &logs[i]
		d.fold(l.Address[:], l.Topics, l.Data, l.BlockNumber, l.TxHash[:], l.TxIndex, l.LogIndex, l.Removed)
	}
	return d
}

// LogsScan is ScanField's answer: the sum of blockNumber, and how many.
type LogsScan struct{ Count, BlockSum uint64 }

// ScanOf is the scan of logs from their values.
func ScanOf(logs []Log) LogsScan {
	s := LogsScan{Count: uint64(len(logs))}
	for i := range logs {
		s.BlockSum += logs[i].BlockNumber
	}
	return s
}

// LogPick is AccessOne's answer: logIndex and transactionHash of one log.
type LogPick struct {
	LogIndex uint32
	TxHash   [HashBytes]byte
}

// MiddleLog is AccessOne's k for n logs (n > 0).
func MiddleLog(n int) int { return n / 2 }
