// cli/child.cpp — `zapbench child` (plumbing, docs/spec/hosts.md §3): its
// flag table and the split at `--`; the agent itself is
// bench::run_child_agent (bench/hosts/remote_child.hpp), which a coordinator
// reaches over ssh through bench::RemoteChild.
#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "bench/hosts/remote_child.hpp"
#include "cli/commands.hpp"
#include "flags/flags.hpp"

namespace cli {

int cmd_child(int argc, char** argv) {
  bench::ChildAgentOptions o;
  flags::Table t("child");
  t.summary(std::string(summary("child")));
  t.usage("[--cpus LIST] [--ready] [--env NAME=VALUE]... [--tmpdir] [--wait-accepting] -- PROGRAM ARG...");
  t.about(
      "Plumbing: what `zapbench run` and `zapbench load --loader-hosts` start over\n"
      "ssh on another host to run a server there (docs/spec/hosts.md §3). Starts\n"
      "PROGRAM in its own process group, its output on stderr; reads control\n"
      "lines on stdin (file NAME BYTES + the bytes, start, stop; end of file\n"
      "kills it at once) and reports on stdout (ready KIND HOST:PORT, ready-end,\n"
      "exit STATUS cpu_s SECONDS). {tmpdir} and {port} in PROGRAM's arguments\n"
      "and in the files are replaced by its private directory and a free port.");
  t.cpu_list("--cpus", &o.cpus, "pin PROGRAM and all it starts to these CPUs").no_default();
  t.set("--ready", &o.ready, true, "give PROGRAM a ready channel (--ready-fd N) and forward its lines");
  t.custom("--env", "NAME=VALUE", "set a variable in PROGRAM's environment (repeatable)",
           [&o](std::string_view v) -> std::optional<flags::Problem> {
             const auto eq = v.find('=');
             if (eq == std::string_view::npos || eq == 0) return flags::Problem{"NAME=VALUE", ""};
             o.env.emplace_back(v);
             return std::nullopt;
           });
  t.set("--tmpdir", &o.tmpdir, true, "make a private directory for {tmpdir}, removed at exit");
  t.set("--wait-accepting", &o.wait_accepting, true,
        "announce 'ready http 0.0.0.0:PORT' once 127.0.0.1:{port} accepts a connection");
  // Everything after the first `--` is PROGRAM's, never a flag of ours.
  const auto end = std::find_if(argv, argv + argc, [](const char* a) { return std::string_view(a) == "--"; });
  t.parse(int(end - argv), argv);
  if (end == argv + argc || end + 1 == argv + argc) t.fail("wants -- PROGRAM ARG... after its flags");
  o.argv.assign(end + 1, argv + argc);
  if (o.ready && o.wait_accepting) t.fail("--ready and --wait-accepting exclude each other");
  return bench::run_child_agent(o);
}

}  // namespace cli
