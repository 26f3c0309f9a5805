// grpc_ref/serve.cpp — `zapbench-grpc serve`: an insecure grpc++ 1.51 server
// on the generated zapbench::Eth service, answering Call with /rpc's compute
// (grpc_ref.hpp's answer()). What people deploy for gRPC, as nginx is for
// HTTP/1.1: zapbench's own HTTP/2 server is compared against it.
//
// Two of grpc++'s server APIs, chosen by --api:
//   async     (the default) the completion-queue API with one
//             ServerCompletionQueue per thread, each thread polling its own
//             queue and answering the calls that land on it inline — the
//             server of gRPC's own C++ benchmarks (test/cpp/qps's async
//             server), and grpc++'s fastest for small unary calls: no hop to
//             another thread between the transport and the handler, and the
//             number of threads is ours (--threads = the CPUs it is pinned to).
//   callback  Service::CallbackService with the default unary reactor: the
//             API grpc++ recommends for new code; the handler runs on grpc's
//             own executor threads, whose number grpc picks.
// Measured (2 cores shared with other builds, so rough): server pinned to
// CPU 0, `zapbench-grpc call --calls 200000 --depth 16` pinned to CPU 1,
// server CPU per call from its stop line: async 23–25 us (36–40k calls/s),
// callback 30–31 us (31k calls/s); at depth 1 (50 000 calls) async 96–117 us,
// callback 127–130 us. So async is the default, and what `zapbench run` runs.
//
// Per call, each async slot re-creates its ServerContext and response writer
// in place (grpc++ has no reset for them); grpc itself allocates per call
// (its call arena, the metadata batches): what an idiomatic grpc++ server
// costs, which is the point of the arm.
#include <grpcpp/ext/proto_server_reflection_plugin.h>
#include <grpcpp/grpcpp.h>
#include <grpcpp/health_check_service_interface.h>
#include <sys/resource.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "flags/flags.hpp"
#include "grpc_ref/grpc_ref.hpp"
#include "proc/ready.hpp"
#include "proc/stop_signals.hpp"
#include "wire/grpc.hpp"
#include "wire/http2.hpp"

namespace grpc_ref {

std::string grpc_address(const std::string& host, unsigned port) {
  if (host.empty()) return "[::]:" + std::to_string(port);
  if (host.find(':') != std::string::npos) return "[" + host + "]:" + std::to_string(port);
  return host + ":" + std::to_string(port);
}

namespace {

enum class Api { async, callback };

// Calls a queue has requested at once (each a slot: context, messages,
// writer). Past them grpc holds new calls until a slot is free again; the
// bound is the streams one connection may open (SETTINGS_MAX_CONCURRENT_STREAMS).
constexpr std::size_t kSlotsPerQueue = wire::h2::kMaxConcurrentStreams;

// How long Shutdown() lets calls in flight finish before cancelling them.
constexpr auto kShutdownGrace = std::chrono::seconds(2);

// --fault: one field of every answer made wrong, for the tests of `call`'s
// checks (they must see a server that lies); none in any real run.
enum class Fault { none, id, balance, nonce, hash, status };

grpc::Status answer_with(Fault fault, const zapbench::Request& req, zapbench::Response& resp) {
  grpc::Status st = answer(req, resp);
  if (fault == Fault::none || !st.ok()) return st;
  switch (fault) {
    case Fault::id:
      resp.set_id(resp.id() + 1);
      break;
    case Fault::balance:
      resp.set_balance(resp.balance() ^ 1);
      break;
    case Fault::nonce:
      resp.set_nonce(resp.nonce() + 1);
      break;
    case Fault::hash:
      (*resp.mutable_block_hash())[0] ^= 1;
      break;
    case Fault::status:
      st = grpc::Status(grpc::StatusCode::INTERNAL, "--fault status");
      break;
    case Fault::none:
      break;
  }
  return st;
}

struct Counts {
  std::uint64_t answered = 0;  // grpc-status 0
  std::uint64_t refused = 0;   // not OK: INVALID_ARGUMENT (the request did not decode), or --fault status
};

// ---- the async API: one completion queue per thread --------------------------

// One thread's queue and what stopping it needs. The stop shuts the server
// down first, while the pollers still answer what arrives (the calls in
// flight get their answers; a slot re-requesting meanwhile gets its tag back
// with ok false). Once the server is down, `shutdown` is set under `mutex` and
// only then is the queue shut down: a slot starts an operation (Finish,
// RequestCall) only under the mutex with `shutdown` false, since one started
// on a shut-down queue is a grpc assertion.
struct Queue {
  std::unique_ptr<grpc::ServerCompletionQueue> cq;
  std::mutex mutex;
  bool shutdown = false;
  Counts counts;
};

class Slot {
 public:
  Slot(zapbench::Eth::AsyncService& service, grpc::ServerCompletionQueue& cq, Fault fault)
      : service_(service), cq_(cq), fault_(fault) {}

  // Asks grpc for the next call on this queue; its arrival is this slot's tag.
  void request() {
    finishing_ = false;
    writer_.reset();
    ctx_.emplace();
    writer_.emplace(&*ctx_);
    service_.RequestCall(&*ctx_, &req_, &*writer_, &cq_, &cq_, this);
  }

  // One event of this slot (under q.mutex): a call arrived (answer it), or
  // its answer went out (request the next).
  void on_event(bool ok, Queue& q) {
    if (q.shutdown) return;  // the server is down: every call ended; start nothing
    if (!finishing_) {
      if (!ok) return;  // the server is shutting down: no call came
      const grpc::Status st = answer_with(fault_, req_, resp_);
      finishing_ = true;
      if (st.ok()) {
        ++q.counts.answered;
        writer_->Finish(resp_, st, this);
      } else {
        ++q.counts.refused;
        writer_->FinishWithError(st, this);
      }
      return;
    }
    // The answer is written (ok) or the call was cancelled (!ok): either way
    // the slot is free for the next call.
    request();
  }

 private:
  zapbench::Eth::AsyncService& service_;
  grpc::ServerCompletionQueue& cq_;
  const Fault fault_;
  std::optional<grpc::ServerContext> ctx_;
  zapbench::Request req_;
  zapbench::Response resp_;  // reused: its block_hash string keeps its capacity
  std::optional<grpc::ServerAsyncResponseWriter<zapbench::Response>> writer_;
  bool finishing_ = false;
};

void poll_queue(Queue& q, std::vector<std::unique_ptr<Slot>>& slots) {
  {
    const std::lock_guard lock(q.mutex);
    if (!q.shutdown)  // a stop may come before this thread starts
      for (auto& s : slots) s->request();
  }
  void* tag = nullptr;
  bool ok = false;
  while (q.cq->Next(&tag, &ok)) {
    const std::lock_guard lock(q.mutex);  // uncontended but for the stop
    static_cast<Slot*>(tag)->on_event(ok, q);
  }
}

// ---- the callback API ------------------------------------------------------

class CallbackEth final : public zapbench::Eth::CallbackService {
 public:
  explicit CallbackEth(Fault fault) : fault_(fault) {}
  grpc::ServerUnaryReactor* Call(grpc::CallbackServerContext* ctx, const zapbench::Request* req,
                                 zapbench::Response* resp) override {
    grpc::ServerUnaryReactor* reactor = ctx->DefaultReactor();
    const grpc::Status st = answer_with(fault_, *req, *resp);
    (st.ok() ? answered_ : refused_).fetch_add(1, std::memory_order_relaxed);
    reactor->Finish(st);
    return reactor;
  }
  Counts counts() const { return {answered_.load(), refused_.load()}; }

 private:
  const Fault fault_;
  std::atomic<std::uint64_t> answered_{0}, refused_{0};
};

}  // namespace

int cmd_serve(int argc, char** argv) {
  flags::HostPort listen;
  unsigned threads = 1;
  Api api = Api::async;
  std::optional<unsigned> ready_fd;
  Fault fault = Fault::none;
  flags::Table t("serve", "zapbench-grpc");
  t.about("An insecure gRPC server (grpc++ " + grpc::Version() +
          ") on the generated service zapbench.Eth: Call\n"
          "answers zapbench.Request with zapbench.Response by zapbench's /rpc compute\n"
          "(id echoed, the balance of record::balance_of, nonce 42, the sample hash); a\n"
          "request whose account is not 20 bytes gets INVALID_ARGUMENT. SIGINT or SIGTERM\n"
          "stops it: calls in flight get 2 s to finish, then the counters are printed.\n"
          "Port 0 picks a free port; the bound address is printed.");
  t.host_port("--listen", &listen, "where to listen").required();
  t.choice("--api", &api, {{"async", Api::async}, {"callback", Api::callback}},
           "async: one completion queue per thread (the fastest); callback: CallbackService on grpc's "
           "executor");
  t.number("--threads", &threads, {1, 1024}, "threads polling a completion queue each (--api async)");
  t.number(
      "--ready-fd", &ready_fd, {0, 1u << 20},
      "once listening, write 'grpc HOST:PORT' to descriptor N, then close it (zapbench run's ready channel)");
  t.section("testing:");
  t.choice("--fault", &fault,
           {{"none", Fault::none},
            {"id", Fault::id},
            {"balance", Fault::balance},
            {"nonce", Fault::nonce},
            {"hash", Fault::hash},
            {"status", Fault::status}},
           "answer every call with this wrong (status: INTERNAL), to test a client's checks");
  t.parse(argc, argv);
  if (api == Api::callback && t.seen("--threads"))
    t.fail("--threads is for --api async; the callback API runs on grpc's own threads");

  // Before grpc starts a thread: they all inherit the blocked signals.
  const proc::StopSignals stop_signals;

  const std::string address = grpc_address(listen.host, listen.port);
  // The two services gRPC tools probe with, as zapbench's own server answers
  // them (docs/spec/http2-grpc.md §2): grpc++'s default health service
  // (grpc.health.v1.Health: SERVING for "" and for zapbench.Eth) and its
  // server reflection (grpc.reflection.v1alpha, from the generated
  // descriptors: grpcurl list / describe). Both before the builder exists.
  grpc::EnableDefaultHealthCheckService(true);
  grpc::reflection::InitProtoReflectionServerBuilderPlugin();
  grpc::ServerBuilder builder;
  int port = 0;
  builder.AddListeningPort(address, grpc::InsecureServerCredentials(), &port);
  // A port in use is an error, not a second server sharing it (grpc sets SO_REUSEPORT by default).
  builder.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
  // The bound zapbench's server announces (docs/spec/http2-grpc.md §1).
  builder.AddChannelArgument(GRPC_ARG_MAX_CONCURRENT_STREAMS,
                             static_cast<int>(wire::h2::kMaxConcurrentStreams));

  zapbench::Eth::AsyncService async_service;
  CallbackEth callback_service(fault);
  std::vector<std::unique_ptr<Queue>> queues;
  if (api == Api::async) {
    builder.RegisterService(&async_service);
    for (unsigned i = 0; i < threads; ++i) {
      queues.push_back(std::make_unique<Queue>());
      queues.back()->cq = builder.AddCompletionQueue();
    }
  } else {
    builder.RegisterService(&callback_service);
  }
  const std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  if (!server || port == 0) {
    std::fprintf(stderr,
                 "zapbench-grpc serve: cannot listen on %s (in use, or not an address of this host)\n",
                 address.c_str());
    return 1;
  }
  if (grpc::HealthCheckServiceInterface* health = server->GetHealthCheckService(); health != nullptr)
    health->SetServingStatus(std::string(::wire::grpc::kServiceName), true);
  const std::string host = listen.host.empty() ? "::" : listen.host;
  std::printf("zapbench-grpc serve: grpc listening on %s\n", grpc_address(host, unsigned(port)).c_str());
  std::printf("zapbench-grpc serve: grpc++ %s, %s API, %s\n", grpc::Version().c_str(),
              api == Api::async ? "async" : "callback",
              api == Api::async ? (std::to_string(threads) + " completion queue thread(s)").c_str()
                                : "grpc's executor threads");
  std::fflush(stdout);

  // The slots and the threads that poll the queues.
  std::vector<std::vector<std::unique_ptr<Slot>>> slots(queues.size());
  std::vector<std::thread> pollers;
  for (std::size_t i = 0; i < queues.size(); ++i) {
    for (std::size_t k = 0; k < kSlotsPerQueue; ++k)
      slots[i].push_back(std::make_unique<Slot>(async_service, *queues[i]->cq, fault));
    pollers.emplace_back(poll_queue, std::ref(*queues[i]), std::ref(slots[i]));
  }
  if (ready_fd) proc::announce_ready(int(*ready_fd), {{"grpc", host, std::uint16_t(port)}});

  std::thread signal_thread = stop_signals.on_signal("zapbench-grpc serve", [&] {
    // See Queue: the server first (calls in flight are answered, or
    // cancelled past the grace), then each queue once nothing can start on it.
    server->Shutdown(std::chrono::system_clock::now() + kShutdownGrace);
    for (auto& q : queues) {
      {
        const std::lock_guard lock(q->mutex);
        q->shutdown = true;
      }
      q->cq->Shutdown();
    }
  });
  server->Wait();  // until the stop's Shutdown()
  for (std::thread& p : pollers) p.join();
  signal_thread.join();

  Counts c = callback_service.counts();
  for (auto& q : queues) {
    c.answered += q->counts.answered;
    c.refused += q->counts.refused;
  }
  // The process's CPU (every grpc thread's), for a figure per call outside `zapbench run`.
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  const double cpu_s = double(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
                       double(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
  std::printf("zapbench-grpc serve: stopped\n  answered ok %llu\n  answered error %llu\n  cpu_s %.3f\n",
              static_cast<unsigned long long>(c.answered), static_cast<unsigned long long>(c.refused), cpu_s);
  return 0;
}

}  // namespace grpc_ref
