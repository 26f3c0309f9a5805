#!/usr/bin/python3
# tests/record/interop_thrift.py — Apache Thrift's own Python library (Debian python3-thrift) on the
# thrift codecs' bytes, for tests/record/interop_thrift_test.cpp. The structs are generated at build time
# from src/record/schemas/thrift.thrift (`thrift --gen py`) into GEN_PY_DIR.
#
#   interop_thrift.py GEN_PY_DIR compact|binary decode request|response FILE
#       reads FILE and prints one line of key=value: integers as unsigned decimal (Thrift's i64 holds the
#       record's u64: same bits), method and byte fields as hex, '-' for an absent field, and trailing=N,
#       the bytes left after the struct
#   interop_thrift.py GEN_PY_DIR compact|binary encode request  FILE ID BLOCK METHOD_HEX ACCOUNT_HEX
#   interop_thrift.py GEN_PY_DIR compact|binary encode response FILE ID BALANCE NONCE HASH_HEX
#       writes the struct to FILE; any value may be '-' (the field is left out, even a required one:
#       write() does not validate, which the error cases rely on)
import sys


def main(argv):
    gen_dir, proto, op, kind, path = argv[1:6]
    sys.path.insert(0, gen_dir)
    from thrift.protocol import TBinaryProtocol, TCompactProtocol
    from thrift.transport import TTransport
    from zapbench_thrift.ttypes import Request, Response

    factory = {"compact": TCompactProtocol.TCompactProtocol, "binary": TBinaryProtocol.TBinaryProtocol}[proto]
    cls = {"request": Request, "response": Response}[kind]
    if op == "decode":
        with open(path, "rb") as f:
            data = f.read()
        trans = TTransport.TMemoryBuffer(data)
        value = cls()
        value.read(factory(trans))
        trailing = len(data) - trans._buffer.tell()

        def num(v):
            return "-" if v is None else str(v & 0xFFFFFFFFFFFFFFFF)

        def hexed(v):
            if v is None:
                return "-"
            return (v.encode("utf-8") if isinstance(v, str) else v).hex()

        if kind == "request":
            fields = [("id", num(value.id)), ("block", num(value.block)), ("method", hexed(value.method)),
                      ("account", hexed(value.account))]
        else:
            fields = [("id", num(value.id)), ("balance", num(value.balance)), ("nonce", num(value.nonce)),
                      ("blockHash", hexed(value.blockHash))]
        fields.append(("trailing", str(trailing)))
        print(" ".join(k + "=" + v for k, v in fields))
        return 0

    def i64(s):  # the u64's bits as Thrift's signed i64
        if s == "-":
            return None
        v = int(s)
        return v - (1 << 64) if v >= (1 << 63) else v

    def raw(s):
        return None if s == "-" else bytes.fromhex(s)

    args = argv[6:]
    if kind == "request":
        method = raw(args[2])
        value = Request(id=i64(args[0]), block=i64(args[1]),
                        method=None if method is None else method.decode("utf-8"), account=raw(args[3]))
    else:
        value = Response(id=i64(args[0]), balance=i64(args[1]), nonce=i64(args[2]), blockHash=raw(args[3]))
    trans = TTransport.TMemoryBuffer()
    value.write(factory(trans))
    with open(path, "wb") as f:
        f.write(trans.getvalue())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
