// tests/node/zap_rpc_client.mjs — a second, independent ZAP-RPC client for our
// server: every envelope is built and parsed by the @zap-proto/zap runtime
// (zap-proto/js, the TypeScript peer of zap-proto/go's rpc package), every
// payload is built and every answer read with its message builder and views.
// Only the frame, [u32 LE L][dir][envelope] (../shared/spec/zap-transport.md
// §5.2), is written here: the package has no wire B framing.
//
//   node zap_rpc_client.mjs HOST:PORT [--calls N] [--in-flight K]
//     Keeps K calls (default 64) in flight on one connection, N calls in all
//     (default 4000): health (ordinal 0) and eth_call (ordinal 1, ZAP body;
//     docs/spec/zap-rpc.md §2) with unique PromiseIDs, each with its own id,
//     block and account so every answer is tied to its call. Matches each
//     response by PromiseID and checks status 200 and the answer: "ok" for
//     health; for eth_call the id echoed, balance = 10^18 XOR (block XOR
//     len(method) XOR len(account) XOR account[0]) (../shared/vectors README
//     §4, eth_resp_server_fold), nonce 42 and the sample blockHash.
//   node zap_rpc_client.mjs --check-vectors SHARED_VECTORS_DIR REPO_VECTORS_DIR
//     No server: the package must build the shared rpc_* envelopes, eth_req
//     and our docs/spec/vectors/rpc_eth_call_*.hex frames byte for byte, and
//     read them back with the documented fields.
// Exits 0 when everything checks, 1 with a message naming the first mismatch,
// 2 on a usage error.
import { Buffer } from 'node:buffer';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';

import {
  Builder,
  buildRequest,
  buildResponse,
  Message,
  parseRequest,
  parseResponse,
  Session,
  Status,
  StructView,
} from '@zap-proto/zap';

const ORDINAL_HEALTH = 0;  // docs/spec/zap-rpc.md §2
const ORDINAL_ETH_CALL = 1;  // 16 x body 0 (ZAP) + op 1
const DIR_REQUEST = 1;
const DIR_RESPONSE = 2;
const MAX_FRAME_BYTES = 64 * 1024 * 1024;
const HANG_MS = 120_000;  // a bound only a hang reaches: every wait is for an answer

// The record (../shared/spec/zap-transport.md §4): EthCallReq and EthCallResp, 32-byte roots.
const SAMPLE_BLOCK = 0x10d4fn;
const SAMPLE_METHOD = 'eth_getBalance';
const SAMPLE_ACCOUNT = Buffer.from('deadbeef00112233445566778899aabbccddeeff', 'hex');
const SAMPLE_HASH = '0123456789abcdeffedcba98765432100f1e2d3c4b5a69788796a5b4c3d2e1f0';
const BALANCE_BASE = 1000000000000000000n;
const NONCE = 42n;

class EthCallResp extends StructView {
  id() { return this.u64(0); }
  balance() { return this.u64(8); }
  nonce() { return this.u64(16); }
  blockHash() { return this.bytes(24); }
}

class EthCallReq extends StructView {
  id() { return this.u64(0); }
  block() { return this.u64(8); }
  method() { return this.text(16); }
  account() { return this.bytes(24); }
}

function fail(message) {
  console.error(`zap_rpc_client: FAILED: ${message}`);
  process.exit(1);
}

function ethCallRequest(id, block, account) {
  const b = new Builder(128);
  const o = b.startObject(32);
  o.setU64(0, id);
  o.setU64(8, block);
  o.setText(16, SAMPLE_METHOD);
  o.setBytes(24, account);
  o.finishAsRoot();
  return b.finish();
}

function expectedBalance(block, method, account) {
  return BALANCE_BASE ^ (block ^ BigInt(Buffer.byteLength(method)) ^ BigInt(account.length) ^ BigInt(account[0]));
}

function rootAs(View, bytes) {
  const root = Message.parse(bytes).root();
  return new View(root.data, root.offset);
}

function frame(dir, envelope) {
  const f = Buffer.allocUnsafe(5 + envelope.length);
  f.writeUInt32LE(envelope.length + 1, 0);
  f[4] = dir;
  f.set(envelope, 5);
  return f;
}

const hex = (b) => Buffer.from(b).toString('hex');
const same = (a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0;

// ---- --check-vectors: the package against the vectors, no server ---------------

function checkVectors(sharedDir, repoDir) {
  const load = (dir, name) => Buffer.from(readFileSync(join(dir, `${name}.hex`), 'utf8').trim(), 'hex');
  const text = (s) => new TextEncoder().encode(s);
  const none = new Uint8Array(0);
  const requests = [
    ['rpc_request_roundtrip', { method: 3, promiseID: 42, target: 0, cap: text('capability-bytes'), payload: Uint8Array.from([1, 2, 3, 4, 5]) }],
    ['rpc_request_wireshape', { method: 7, promiseID: 9, target: 0, cap: none, payload: none }],
    ['rpc_request_pipelined', { method: 2, promiseID: 2, target: 1, cap: none, payload: none }],
  ];
  for (const [name, call] of requests) {
    const want = load(sharedDir, name);
    if (!same(buildRequest(call), want)) fail(`${name}: buildRequest gives ${hex(buildRequest(call))}, the vector is ${hex(want)}`);
    const back = parseRequest(want);
    for (const k of ['method', 'promiseID', 'target']) if (back[k] !== call[k]) fail(`${name}: parseRequest ${k} = ${back[k]}, want ${call[k]}`);
    if (!same(back.cap, call.cap) || !same(back.payload, call.payload)) fail(`${name}: parseRequest cap/payload differ`);
  }
  const responses = [
    ['rpc_response_roundtrip', 200, 42, text('result-body-bytes')],
    ['rpc_response_forbidden', 403, 9, none],
  ];
  for (const [name, status, promiseID, body] of responses) {
    const want = load(sharedDir, name);
    if (!same(buildResponse(status, promiseID, body), want)) fail(`${name}: buildResponse differs from the vector`);
    const back = parseResponse(want);
    if (back.status !== status || back.promiseID !== promiseID || !same(back.body, body)) fail(`${name}: parseResponse fields differ`);
  }
  const ethReq = ethCallRequest(1n, SAMPLE_BLOCK, SAMPLE_ACCOUNT);
  if (!same(ethReq, load(sharedDir, 'eth_req'))) fail(`eth_req: the builder gives ${hex(ethReq)}`);
  // Our frames (docs/spec/zap-rpc.md §5): the package builds the same envelopes.
  const callFrame = load(repoDir, 'rpc_eth_call_frame');
  const session = new Session();
  const call = session.origin(session.next(), ORDINAL_ETH_CALL, undefined, ethReq);
  if (!same(frame(DIR_REQUEST, buildRequest(call)), callFrame)) fail('rpc_eth_call_frame: the package builds a different frame');
  const req = parseRequest(callFrame.subarray(5));
  const r = rootAs(EthCallReq, req.payload);
  if (req.method !== 1 || req.promiseID !== 1 || req.target !== 0 || r.id() !== 1n || r.block() !== SAMPLE_BLOCK ||
      r.method() !== SAMPLE_METHOD || !same(r.account(), SAMPLE_ACCOUNT))
    fail('rpc_eth_call_frame: fields read back differ');
  const answerFrame = load(repoDir, 'rpc_eth_call_answer_frame');
  const fold = load(sharedDir, 'eth_resp_server_fold');
  if (!same(frame(DIR_RESPONSE, buildResponse(Status.OK, 1, fold)), answerFrame)) fail('rpc_eth_call_answer_frame: the package builds a different frame');
  const resp = parseResponse(answerFrame.subarray(5));
  const a = rootAs(EthCallResp, resp.body);
  if (resp.status !== 200 || resp.promiseID !== 1 || a.id() !== 1n ||
      a.balance() !== expectedBalance(SAMPLE_BLOCK, SAMPLE_METHOD, SAMPLE_ACCOUNT) || a.nonce() !== NONCE ||
      hex(a.blockHash()) !== SAMPLE_HASH)
    fail('rpc_eth_call_answer_frame: fields read back differ');
  console.log('zap_rpc_client: @zap-proto/zap builds and reads the 5 shared rpc_* vectors, eth_req and our 2 eth_call frames byte for byte');
}

// ---- the live client ----------------------------------------------------------------

function parseArgs(argv) {
  const usage = 'usage: zap_rpc_client.mjs HOST:PORT [--calls N] [--in-flight K] | --check-vectors SHARED_DIR REPO_DIR';
  if (argv[0] === '--check-vectors') {
    if (argv.length !== 3) { console.error(usage); process.exit(2); }
    return { checkVectors: [argv[1], argv[2]] };
  }
  const out = { calls: 4000, inFlight: 64 };
  const m = /^(.+):(\d+)$/.exec(argv[0] ?? '');
  if (!m) { console.error(usage); process.exit(2); }
  out.host = m[1];
  out.port = Number(m[2]);
  for (let i = 1; i < argv.length; i += 2) {
    const v = Number(argv[i + 1]);
    if (!Number.isInteger(v) || v < 1) { console.error(`${argv[i]} wants a whole number >= 1\n${usage}`); process.exit(2); }
    if (argv[i] === '--calls') out.calls = v;
    else if (argv[i] === '--in-flight') out.inFlight = v;
    else { console.error(usage); process.exit(2); }
  }
  return out;
}

function run({ host, port, calls, inFlight }) {
  const session = new Session();  // the package's PromiseIDs: unique, from 1
  const pending = new Map();  // PromiseID -> what the answer must be
  let sent = 0, answered = 0, health = 0, eth = 0, maxInFlight = 0, outOfOrder = 0, lastAnswered = 0;
  let input = Buffer.alloc(0);
  const socket = net.createConnection({ host, port });
  socket.setNoDelay(true);
  const hang = setTimeout(() => fail(`no progress: ${answered} of ${calls} answered, ${pending.size} in flight (PromiseIDs ${[...pending.keys()].slice(0, 8).join(', ')}...)`), HANG_MS);

  function send(n) {
    const frames = [];
    for (let k = 0; k < n && sent < calls; ++k, ++sent) {
      const p = session.next();
      let call, expect;
      if (sent % 4 === 3) {
        call = session.origin(p, ORDINAL_HEALTH);
        expect = { kind: 'health' };
        ++health;
      } else {
        // Every call its own id, block and first account byte: an answer given to the wrong call shows.
        const id = BigInt(p.id) * 7919n;
        const block = SAMPLE_BLOCK + BigInt(sent);
        const account = Buffer.from(SAMPLE_ACCOUNT);
        account[0] = sent & 0xff;
        call = session.origin(p, ORDINAL_ETH_CALL, undefined, ethCallRequest(id, block, account));
        expect = { kind: 'eth_call', id, balance: expectedBalance(block, SAMPLE_METHOD, account) };
        ++eth;
      }
      if (pending.has(call.promiseID)) fail(`the package's Session gave PromiseID ${call.promiseID} twice`);
      pending.set(call.promiseID, expect);
      frames.push(frame(DIR_REQUEST, buildRequest(call)));
    }
    maxInFlight = Math.max(maxInFlight, pending.size);
    if (frames.length) socket.write(Buffer.concat(frames));
  }

  function check(promiseID, res) {
    const want = pending.get(promiseID);
    if (want === undefined) fail(`a response for PromiseID ${promiseID}, which is not in flight`);
    pending.delete(promiseID);
    if (promiseID < lastAnswered) ++outOfOrder;
    lastAnswered = promiseID;
    if (res.status !== Status.OK) fail(`PromiseID ${promiseID} (${want.kind}): status ${res.status}, body ${JSON.stringify(Buffer.from(res.body).toString())}`);
    if (want.kind === 'health') {
      if (Buffer.from(res.body).toString() !== 'ok') fail(`PromiseID ${promiseID} (health): body ${hex(res.body)}, want "ok"`);
      return;
    }
    let a;
    try {
      a = rootAs(EthCallResp, res.body);
    } catch (e) {
      fail(`PromiseID ${promiseID} (eth_call): the body is not a ZAP message: ${e.message}`);
    }
    if (a.id() !== want.id) fail(`PromiseID ${promiseID}: id ${a.id()}, want ${want.id} (the call's own id)`);
    if (a.balance() !== want.balance) fail(`PromiseID ${promiseID}: balance ${a.balance()}, want ${want.balance}`);
    if (a.nonce() !== NONCE) fail(`PromiseID ${promiseID}: nonce ${a.nonce()}, want 42`);
    if (hex(a.blockHash()) !== SAMPLE_HASH) fail(`PromiseID ${promiseID}: blockHash ${hex(a.blockHash())}`);
  }

  socket.on('connect', () => send(inFlight));
  socket.on('data', (chunk) => {
    input = input.length ? Buffer.concat([input, chunk]) : chunk;
    let done = 0;
    for (;;) {
      if (input.length < 4) break;
      const l = input.readUInt32LE(0);
      if (l === 0 || l > MAX_FRAME_BYTES) fail(`a frame with L = ${l}`);
      if (input.length < 4 + l) break;
      const dir = input[4];
      if (dir !== DIR_RESPONSE) fail(`a frame with direction ${dir}, want 2 (response)`);
      let res;
      try {
        res = parseResponse(input.subarray(5, 4 + l));
      } catch (e) {
        fail(`a malformed response envelope (${e.message}): ${hex(input.subarray(5, Math.min(4 + l, 69)))}`);
      }
      check(res.promiseID, res);
      input = input.subarray(4 + l);
      ++answered;
      ++done;
    }
    if (answered === calls) {
      clearTimeout(hang);
      socket.destroy();  // done: whatever the server does with the connection now is not this test's
      console.log(`zap_rpc_client: ${calls} calls (${eth} eth_call, ${health} health) on one connection, ` +
                  `up to ${maxInFlight} in flight, every answer matched by PromiseID and valid ` +
                  `(${outOfOrder} came after a later call's)`);
      return;
    }
    send(done);  // keep the window full
  });
  socket.on('error', (e) => fail(`socket: ${e.message} (${answered} of ${calls} answered)`));
  socket.on('close', () => {
    if (answered !== calls) fail(`the server closed the connection after ${answered} of ${calls} answers`);
  });
}

const args = parseArgs(process.argv.slice(2));
if (args.checkVectors) checkVectors(...args.checkVectors);
else run(args);
