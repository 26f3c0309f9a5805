#!/usr/bin/python3
# tests/record/interop_thrift.py — Apache Thrift's own Python library (Debian python3-thrift) on the
# thrift codecs' bytes, for tests/record/interop_thrift_test.cpp. The structs are generated at build time
# from src/record/schemas/thrift.thrift (`thrift --gen py`) into GEN_PY_DIR.
#
#   interop_thrift.py GEN_PY_DIR compact|binary decode request|response|logs_request|logs FILE
#       reads FILE and prints key=value pairs: integers as unsigned decimal (Thrift's i64 holds the
#       record's u64, its i32 a u32: same bits), method and byte fields as hex, a list of byte strings as
#       hex joined by ',', '-' for an absent field, and trailing=N, the bytes left after the struct. One
#       line, except for logs: a line per log, then "logs=N trailing=N".
#   interop_thrift.py GEN_PY_DIR compact|binary encode request      FILE ID BLOCK METHOD_HEX ACCOUNT_HEX
#   interop_thrift.py GEN_PY_DIR compact|binary encode response     FILE ID BALANCE NONCE HASH_HEX
#   interop_thrift.py GEN_PY_DIR compact|binary encode logs_request FILE FROM TO ADDRESS_HEX LIMIT
#       writes the struct to FILE; any value may be '-' (the field is left out, even a required one:
#       write() does not validate, which the error cases rely on)
#   interop_thrift.py GEN_PY_DIR compact|binary encode logs         FILE JSON
#       writes a LogsResponse: JSON is a list of logs, each an object of the Log's fields (byte fields
#       and topics in hex, integers unsigned, removed a boolean); a key left out is a field left out
import json
import sys

LOG_FIELDS = ["address", "topics", "data", "blockNumber", "transactionHash", "transactionIndex", "logIndex",
              "removed"]


def main(argv):
    gen_dir, proto, op, kind, path = argv[1:6]
    sys.path.insert(0, gen_dir)
    from thrift.protocol import TBinaryProtocol, TCompactProtocol
    from thrift.transport import TTransport
    from zapbench_thrift.ttypes import Log, LogsRequest, LogsResponse, Request, Response

    factory = {"compact": TCompactProtocol.TCompactProtocol, "binary": TBinaryProtocol.TBinaryProtocol}[proto]
    cls = {"request": Request, "response": Response, "logs_request": LogsRequest, "logs": LogsResponse}[kind]
    if op == "decode":
        with open(path, "rb") as f:
            data = f.read()
        trans = TTransport.TMemoryBuffer(data)
        value = cls()
        value.read(factory(trans))
        trailing = len(data) - trans._buffer.tell()

        def num(v, bits=64):
            return "-" if v is None else str(v & ((1 << bits) - 1))

        def hexed(v):
            if v is None:
                return "-"
            return (v.encode("utf-8") if isinstance(v, str) else v).hex()

        def line(fields):
            print(" ".join(k + "=" + v for k, v in fields))

        if kind == "request":
            fields = [("id", num(value.id)), ("block", num(value.block)), ("method", hexed(value.method)),
                      ("account", hexed(value.account))]
        elif kind == "response":
            fields = [("id", num(value.id)), ("balance", num(value.balance)), ("nonce", num(value.nonce)),
                      ("blockHash", hexed(value.blockHash))]
        elif kind == "logs_request":
            fields = [("fromBlock", num(value.fromBlock)), ("toBlock", num(value.toBlock)),
                      ("address", hexed(value.address)), ("limit", num(value.limit, 32))]
        else:
            logs = value.logs or []
            for log in logs:
                line([("address", hexed(log.address)),
                      ("topics", "-" if log.topics is None else ",".join(t.hex() for t in log.topics)),
                      ("data", hexed(log.data)), ("blockNumber", num(log.blockNumber)),
                      ("transactionHash", hexed(log.transactionHash)),
                      ("transactionIndex", num(log.transactionIndex, 32)), ("logIndex", num(log.logIndex, 32)),
                      ("removed", "-" if log.removed is None else str(int(log.removed)))])
            fields = [("logs", str(len(logs)))]
        fields.append(("trailing", str(trailing)))
        line(fields)
        return 0

    def signed(v, bits):  # the unsigned value's bits as Thrift's signed integer
        return v - (1 << bits) if v >= (1 << (bits - 1)) else v

    def i64(s):
        return None if s == "-" else signed(int(s), 64)

    def i32(s):
        return None if s == "-" else signed(int(s), 32)

    def raw(s):
        return None if s == "-" else bytes.fromhex(s)

    args = argv[6:]
    if kind == "request":
        method = raw(args[2])
        value = Request(id=i64(args[0]), block=i64(args[1]),
                        method=None if method is None else method.decode("utf-8"), account=raw(args[3]))
    elif kind == "response":
        value = Response(id=i64(args[0]), balance=i64(args[1]), nonce=i64(args[2]), blockHash=raw(args[3]))
    elif kind == "logs_request":
        value = LogsRequest(fromBlock=i64(args[0]), toBlock=i64(args[1]), address=raw(args[2]), limit=i32(args[3]))
    else:
        logs = []
        for spec in json.loads(args[0]):
            unknown = set(spec) - set(LOG_FIELDS)
            if unknown:
                raise SystemExit("unknown Log fields: " + ", ".join(sorted(unknown)))
            log = Log()
            for key in ("address", "data", "transactionHash"):
                if key in spec:
                    setattr(log, key, bytes.fromhex(spec[key]))
            if "topics" in spec:
                log.topics = [bytes.fromhex(t) for t in spec["topics"]]
            if "blockNumber" in spec:
                log.blockNumber = signed(spec["blockNumber"], 64)
            for key in ("transactionIndex", "logIndex"):
                if key in spec:
                    setattr(log, key, signed(spec[key], 32))
            if "removed" in spec:
                log.removed = bool(spec["removed"])
            logs.append(log)
        value = LogsResponse(logs=logs)
    trans = TTransport.TMemoryBuffer()
    value.write(factory(trans))
    with open(path, "wb") as f:
        f.write(trans.getvalue())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
