// grpc_ref/call.cpp — `zapbench-grpc call`: an independent gRPC client, the
// generated zapbench::Eth stub of grpc++ on one channel, keeping --depth calls
// in flight on one completion queue (the async stub: PrepareAsyncCall,
// StartCall, Finish). Every call carries its own id, block, method and
// account, and every answer is checked against record::compute's: the id,
// the balance (record::balance_of of that call's block, method and account),
// nonce 42 and the sample hash. Runs against zapbench's gRPC endpoint
// (`zapbench serve --http2`) and against `zapbench-grpc serve`; prints one
// summary line and exits 1 on any failed call.
#include <grpcpp/grpcpp.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "flags/flags.hpp"
#include "grpc_ref/grpc_ref.hpp"

namespace grpc_ref {
namespace {

using Clock = std::chrono::steady_clock;

// How many failed calls are described on stderr; the rest are counted.
constexpr std::uint64_t kFailuresShown = 5;

// Call i's request: id i + 1, block and account varying with i, and the
// method's length alternating, so each field reaches the balance and an
// answer meant for another call cannot pass.
// account_bytes other than 20 (call --account-bytes): a request the server
// must refuse with INVALID_ARGUMENT.
void fill(std::uint64_t i, std::size_t account_bytes, zapbench::Request& req) {
  req.set_id(i + 1);
  req.set_block(record::kSampleBlock + i);
  req.set_method(i % 2 == 0 ? "eth_getBalance" : "eth_call");
  record::Account account = record::kSampleAccount;
  account[0] = static_cast<std::uint8_t>(i);
  account[record::kAccountBytes - 1] = static_cast<std::uint8_t>(i >> 8);
  std::string& out = *req.mutable_account();
  out.assign(reinterpret_cast<const char*>(account.data()), std::min(account_bytes, account.size()));
  out.resize(account_bytes, '\x5a');
}

// What is wrong with call i's answer; "" when nothing is.
std::string check(const zapbench::Request& req, const grpc::Status& st, const zapbench::Response& resp) {
  if (!st.ok())
    return "grpc-status " + std::to_string(int(st.error_code())) + " (" + st.error_message() + ")";
  const std::uint64_t balance =
      record::balance_of(req.block(), req.method().size(), static_cast<std::uint8_t>(req.account()[0]));
  if (resp.id() != req.id()) return "id " + std::to_string(resp.id()) + ", want " + std::to_string(req.id());
  if (resp.balance() != balance)
    return "balance " + std::to_string(resp.balance()) + ", want " + std::to_string(balance);
  if (resp.nonce() != record::kSampleNonce)
    return "nonce " + std::to_string(resp.nonce()) + ", want " + std::to_string(record::kSampleNonce);
  const std::string& hash = resp.block_hash();
  if (hash.size() != record::kHashBytes ||
      std::memcmp(hash.data(), record::kSampleHash.data(), record::kHashBytes) != 0)
    return "block_hash of " + std::to_string(hash.size()) + " bytes, not the sample hash";
  return "";
}

// One call in flight: the messages and grpc's per-call objects (a
// ClientContext serves one call, so it is re-created in place for each).
struct Slot {
  std::uint64_t index = 0;
  std::optional<grpc::ClientContext> ctx;
  zapbench::Request req;
  zapbench::Response resp;
  grpc::Status status;
  std::unique_ptr<grpc::ClientAsyncResponseReader<zapbench::Response>> reader;
};

}  // namespace

int cmd_call(int argc, char** argv) {
  flags::HostPort target;
  std::uint64_t calls = 1000;
  unsigned depth = 1;
  double timeout_s = 60;
  std::size_t account_bytes = record::kAccountBytes;
  flags::Table t("call", "zapbench-grpc");
  t.about(
      "Calls zapbench.Eth/Call (gRPC, insecure, one channel) --calls times with\n"
      "--depth calls in flight, each with its own id, block, method and account, and\n"
      "checks every answer: grpc-status 0, the id, the balance, the nonce and the\n"
      "hash /rpc's compute gives. Prints one line; exits 1 when any call failed.");
  t.host_port("--target", &target, "the gRPC server", false).required();
  t.number("--calls", &calls, {1, std::uint64_t{1} << 40}, "calls to make");
  t.number("--depth", &depth, {1, 4096}, "calls in flight at once");
  t.duration("--timeout", &timeout_s, {0, 86400, true},
             "a bound on connecting and on each call (a hang bound: past it the call fails)");
  t.section("testing:");
  t.number("--account-bytes", &account_bytes, {0, 1024},
           "the account's length: not 20 sends requests a server must refuse (INVALID_ARGUMENT)");
  t.parse(argc, argv);

  const std::string address = grpc_address(target.host.empty() ? "127.0.0.1" : target.host, target.port);
  const auto timeout = std::chrono::duration_cast<std::chrono::system_clock::duration>(
      std::chrono::duration<double>(timeout_s));
  const std::shared_ptr<grpc::Channel> channel =
      grpc::CreateChannel(address, grpc::InsecureChannelCredentials());
  if (!channel->WaitForConnected(std::chrono::system_clock::now() + timeout)) {
    std::fprintf(stderr, "zapbench-grpc call: cannot connect to %s within %s\n", address.c_str(),
                 flags::format_duration(timeout_s).c_str());
    return 1;
  }
  const std::unique_ptr<zapbench::Eth::Stub> stub = zapbench::Eth::NewStub(channel);
  grpc::CompletionQueue cq;

  std::vector<Slot> slots(std::min<std::uint64_t>(depth, calls));
  std::uint64_t sent = 0, done = 0, ok_calls = 0, failed = 0;
  const auto send = [&](Slot& s) {
    s.index = sent++;
    fill(s.index, account_bytes, s.req);
    s.resp.Clear();
    // The reader lives in the last call's arena, which its context owns: gone first.
    s.reader.reset();
    s.ctx.emplace();
    s.ctx->set_deadline(std::chrono::system_clock::now() + timeout);
    s.reader = stub->PrepareAsyncCall(&*s.ctx, s.req, &cq);
    s.reader->StartCall();
    s.reader->Finish(&s.resp, &s.status, &s);
  };

  const Clock::time_point start = Clock::now();
  for (Slot& s : slots) send(s);
  void* tag = nullptr;
  bool ok = false;
  while (done < calls && cq.Next(&tag, &ok)) {
    Slot& s = *static_cast<Slot*>(tag);
    ++done;
    // Finish's tag always comes back ok; the outcome is in the status.
    const std::string why = ok ? check(s.req, s.status, s.resp) : "the completion queue failed the call";
    if (why.empty()) {
      ++ok_calls;
    } else if (++failed <= kFailuresShown) {
      std::fprintf(stderr, "zapbench-grpc call: call %llu (id %llu): %s\n",
                   static_cast<unsigned long long>(s.index), static_cast<unsigned long long>(s.req.id()),
                   why.c_str());
    }
    if (sent < calls) send(s);
  }
  const double elapsed_s = std::chrono::duration<double>(Clock::now() - start).count();
  cq.Shutdown();
  while (cq.Next(&tag, &ok)) {
  }

  std::printf(
      "zapbench-grpc call: %llu calls to %s, depth %u: %llu ok, %llu failed in %.3f s (%.0f calls/s)\n",
      static_cast<unsigned long long>(calls), address.c_str(), depth,
      static_cast<unsigned long long>(ok_calls), static_cast<unsigned long long>(failed), elapsed_s,
      elapsed_s > 0 ? double(done) / elapsed_s : 0.0);
  return failed == 0 && ok_calls == calls ? 0 : 1;
}

}  // namespace grpc_ref
