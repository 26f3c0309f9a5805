// logs_zap.go owns the eth_getLogs answer in ZAP for the Go arm: the writer
// of the layout docs/spec/zap-logs.md fixes (what the Go micro reads; its
// bytes equal the C++ encoder's, tested against the spec's vector), and the
// three reads with zap-proto/go's accessors alone — the list slot, then
// List.Object(k, 88) for log k — refusing what the spec says a reader must.
package record

import (
	"encoding/binary"
	"errors"
	"fmt"

	zap "github.com/zap-proto/go"
)

// The answer's layout: a root of one list slot at 16, the 88-byte records
// from 24, their tails (topics, then data) after them.
const (
	logRecordBytes = 88
	logsRoot       = 16
	logsBody       = 24

	logBlockAt    = 0
	logTxIndexAt  = 8
	logLogIndexAt = 12
	logAddressAt  = 16
	logRemovedAt  = 36
	logTxHashAt   = 40
	logTopicsAt   = 72
	logDataAt     = 80
)

// ErrLogs is the kind of every logs decode error.
var ErrLogs = errors.New("malformed logs answer")

// AppendLogsZap appends the ZAP answer of logs to dst (reused by the caller).
func AppendLogsZap(dst []byte, logs []Log) []byte {
	size := logsBody + logRecordBytes*len(logs)
	for i := range logs {
		size += len(logs[i].Topics) + len(logs[i].Data)
	}
	start := len(dst)
	dst = append(dst, make([]byte, size)...)
	m := dst[start:]
	copy(m, "ZAP\x00")
	binary.LittleEndian.PutUint16(m[4:], 1)
	binary.LittleEndian.PutUint32(m[8:], logsRoot)
	binary.LittleEndian.PutUint32(m[12:], uint32(size))
	if len(logs) > 0 { // an empty list is a null slot
		binary.LittleEndian.PutUint32(m[logsRoot:], logsBody-logsRoot)
		binary.LittleEndian.PutUint32(m[logsRoot+4:], uint32(len(logs)))
	}
	tail := logsBody + logRecordBytes*len(logs)
	slot := func(at int, b []byte) {
		if len(b) == 0 {
			return // null (0, 0)
		}
		binary.LittleEndian.PutUint32(m[at:], uint32(tail-at))
		binary.LittleEndian.PutUint32(m[at+4:], uint32(len(b)))
		tail += copy(m[tail:], b)
	}
	for i := range logs {
		l, r := &logs[i], logsBody+logRecordBytes*i
		binary.LittleEndian.PutUint64(m[r+logBlockAt:], l.BlockNumber)
		binary.LittleEndian.PutUint32(m[r+logTxIndexAt:], l.TxIndex)
		binary.LittleEndian.PutUint32(m[r+logLogIndexAt:], l.LogIndex)
		copy(m[r+logAddressAt:], l.Address[:])
		if l.Removed {
			m[r+logRemovedAt] = 1
		}
		copy(m[r+logTxHashAt:], l.TxHash[:])
		slot(r+logTopicsAt, l.Topics)
		slot(r+logDataAt, l.Data)
	}
	return dst
}

// logsCount checks the root and its list slot against the message's size
// (once: then every fixed field of every record is in bounds) and gives N.
// The raw slot tells an empty list (0, 0) from one the runtime's clamp
// refused (also a null List): the latter is malformed, not empty.
func logsCount(data []byte, size int) (int, error) {
	root := int(binary.LittleEndian.Uint32(data[8:12]))
	if root < zap.HeaderSize || root+8 > size {
		return 0, fmt.Errorf("%w: the root (offset %d) passes the message's %d bytes", ErrLogs, root, size)
	}
	rel, n := binary.LittleEndian.Uint32(data[root:]), binary.LittleEndian.Uint32(data[root+4:])
	if rel == 0 {
		if n != 0 {
			return 0, fmt.Errorf("%w: a null list slot with %d logs", ErrLogs, n)
		}
		return 0, nil
	}
	if body := uint64(root) + uint64(rel); body < zap.HeaderSize || body+logRecordBytes*uint64(n) > uint64(size) {
		return 0, fmt.Errorf("%w: %d logs of %d bytes at %d pass the message's %d bytes", ErrLogs, n, logRecordBytes, body, size)
	}
	return int(n), nil
}

// checkTopics: 0–4 topics of 32 bytes. (Each reader parses the message
// itself rather than through a helper, so that the Message stays on the stack.)
func checkTopics(k int, topics []byte) error {
	if len(topics)%LogTopicBytes != 0 || len(topics) > LogMaxTopics*LogTopicBytes {
		return fmt.Errorf("%w: log %d has %d bytes of topics", ErrLogs, k, len(topics))
	}
	return nil
}

func parseError(err error) error { return fmt.Errorf("%w: %v", ErrLogs, err) }

// ZapLogsDecodeAll reads every field of every log into d (DecodeAll).
func ZapLogsDecodeAll(data []byte, d *LogsDigest) error {
	m, err := zap.Parse(data)
	if err != nil {
		return parseError(err)
	}
	n, err := logsCount(data, m.Size())
	if err != nil {
		return err
	}
	list := m.Root().List(0)
	*d = LogsDigest{}
	for k := 0; k < n; k++ {
		o := list.Object(k, logRecordBytes)
		topics := o.Bytes(logTopicsAt)
		if err := checkTopics(k, topics); err != nil {
			return err
		}
		d.fold(o.BytesFixed(logAddressAt, AccountBytes), topics, o.Bytes(logDataAt), o.Uint64(logBlockAt),
			o.BytesFixed(logTxHashAt, HashBytes), o.Uint32(logTxIndexAt), o.Uint32(logLogIndexAt), o.Bool(logRemovedAt))
	}
	return nil
}

// ZapLogsAccessOne reads logIndex and transactionHash of log k (AccessOne).
func ZapLogsAccessOne(data []byte, k int, p *LogPick) error {
	m, err := zap.Parse(data)
	if err != nil {
		return parseError(err)
	}
	n, err := logsCount(data, m.Size())
	if err != nil {
		return err
	}
	if k < 0 || k >= n {
		return fmt.Errorf("%w: log %d of %d", ErrLogs, k, n)
	}
	o := m.Root().List(0).Object(k, logRecordBytes)
	p.LogIndex = o.Uint32(logLogIndexAt)
	copy(p.TxHash[:], o.BytesFixed(logTxHashAt, HashBytes))
	return nil
}

// ZapLogsScan sums blockNumber over every log (ScanField).
func ZapLogsScan(data []byte, s *LogsScan) error {
	m, err := zap.Parse(data)
	if err != nil {
		return parseError(err)
	}
	n, err := logsCount(data, m.Size())
	if err != nil {
		return err
	}
	list := m.Root().List(0)
	*s = LogsScan{Count: uint64(n)}
	for k := 0; k < n; k++ {
		s.BlockSum += list.Object(k, logRecordBytes).Uint64(logBlockAt)
	}
	return nil
}
