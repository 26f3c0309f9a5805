// bench/arms/go_arm.hpp — the Go reference arm (the module in go/, built into
// `zapbench-go` by scripts/go-build.sh): where its binary is, what this build
// of it can serve (its own `zapbench-go capabilities`, so a reason for
// something unavailable is the Go side's word, never guessed here), and the
// command lines of its server and its microbenchmarks. Owns Go specifics
// only; starting and stopping the processes is the supervisor's.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bench/children/supervisor.hpp"
#include "bench/plan/arm.hpp"
#include "matrix/matrix.hpp"
#include "report/model.hpp"

namespace bench {

// The matrix's axes, as bench spells them (the types are matrix's).
using matrix::Arm;
using matrix::Framing;
using matrix::Scenario;

struct GoArm {
  std::string binary;                          // the zapbench-go executable; "" when the arm cannot run
  std::string unavailable;                     // why nothing of the Go arm can run ("" when it can)
  std::string go_version;                      // "go1.26.8"
  std::map<std::string, std::string> modules;  // module path -> version, as built
  // The ZAP-RPC server, <binary>-rpc: zap-proto/go's transport needs v1.4+, a
  // build of its own beside the reference's v1.3.0 ("" when absent:
  // transports["zap-rpc"] says why), and its modules as built.
  std::string rpc_binary;
  std::map<std::string, std::string> rpc_modules;
  // name -> "" when available, else why not (the Go side's words).
  std::map<std::string, std::string> frameworks, transports, codecs;

  [[nodiscard]] bool runs() const { return unavailable.empty() && !binary.empty(); }
  // Why `name` of `table` cannot be used; "" when it can.
  [[nodiscard]] std::string why_not(const std::map<std::string, std::string>& table,
                                    const std::string& name) const;
};

// The binary a run uses when --go is not given: $ZAPBENCH_GO, else the one
// this build tree's CMake built (build/<preset>/go/zapbench-go).
std::string default_go_binary();

// Asks `binary capabilities` (a hang bound of 30 s), then `<binary>-rpc
// capabilities`, whose answer makes the zap-rpc transport available (its
// failure is that transport's reason). A missing binary takes the reason
// scripts/go-build.sh left beside it (<binary>.unavailable), or says how to
// build it.
GoArm probe_go(const std::string& binary);

// Reads the JSON `zapbench-go capabilities` prints into `arm`; throws
// std::runtime_error naming what is wrong.
void parse_capabilities(const std::string& json_text, GoArm& arm);

// The Go arm as a run found it (FoundArm::detail): its capabilities; an
// unavailable one when it holds none.
const GoArm& go_of(const FoundArm& found);
// `go` as a run's FoundArm: its binary, why it cannot run, its JSON codec
// (--go-json), the versions results.json records (go, every module as built).
FoundArm go_found(GoArm go, const std::string& json = "goccy");

// The Go framework of a Go arm: zip, fasthttp, nethttp.
std::string_view go_framework(Arm a) noexcept;

// Why a Go arm cannot serve this cell ("" when it can): the arm as built,
// its framework, its transport (ZAP-HTTP is zap-proto/http's), its JSON
// codec and a ZAP body (zap-proto/go's).
std::string go_cell_unavailable(const GoArm& go, Arm arm, Framing framing, Scenario scenario,
                                const std::string& body, const std::string& go_json);

// The server child of a Go arm's cell: `zapbench-go serve --http
// 127.0.0.1:0 --fw F --json C` (--zap for the ZAP-HTTP framing: zap-proto/http
// on fasthttp; `zapbench-go-rpc serve --zap-rpc 127.0.0.1:0` for ZAP-RPC),
// pinned to `cpus`, GOMAXPROCS = their count.
ChildSpec go_server_spec(const GoArm& go, Arm arm, Framing framing, const std::string& go_json,
                         const std::vector<int>& cpus, const std::string& listen_host = "127.0.0.1");

// The Go microbenchmarks: `zapbench-go micro --json-out FILE`, pinned to
// `cpus` (one CPU, like the C++ micro; empty: not pinned) with GOMAXPROCS=1.
ChildSpec go_micro_spec(const GoArm& go, const std::string& json_out, double min_time_s, unsigned repetitions,
                        const std::string& filter, const std::vector<int>& cpus, const std::string& log_path);

// Runs a go_micro_spec child to its end (a hang bound of an hour; the suite
// takes a minute) and ingests what it wrote to `json_out` into `micro`
// (<op>/go/<codec> rows, round `round`'s, and what the Go build lacks among
// the unavailable codecs). A failure is a note, naming the child's log when
// it has one.
void measure_go_micro(const ChildSpec& spec, const std::string& json_out, report::Micro& micro,
                      std::vector<std::string>& notes, std::optional<unsigned> round = std::nullopt);

// The Go arms' rows of the arm table (arm.hpp): hello and rpc on HTTP/1.1
// and ZAP-HTTP (ZAP-RPC: zip only; net/http has no ZAP-HTTP), one JSON body
// (the first available: the Go server decodes every JSON body with its own
// codec) and ZAP; what the Go build cannot serve is unavailable with its
// reason; no logs (the reference has no /logs), no binary peers, no HTTP/2.
// Each cell described as built (report::describe_go_cell): the ZAP-RPC
// cells named by their server, zap-proto/go's transport in zapbench-go-rpc
// ("zap-proto/go v1.8.1 ZAP-RPC"), every cell with its modules' versions.
void go_cells(CellPlanner& planner, Arm arm);
// quick: go-zip's ZAP-HTTP hello and rpc cells, its ZAP-RPC + ZAP and HTTP/1.1
// + JSON rpc cells; go-fasthttp's rpc cells on HTTP/1.1 and ZAP-HTTP + ZAP.
bool go_quick(Arm arm, Scenario s, Framing f, const std::string& body, const std::string& json,
              const std::string& peer);
// go_server_spec for the cell.
ServerLaunch go_launch(const RunPlan& plan, const std::string& zapbench_exe, const CellPlan& cell);

}  // namespace bench
