// cli/host_info.cpp — `zapbench host-info`, plumbing: the 'key: value' lines every host answers before
// a run over ssh measures (bench/hosts/ssh.hpp).
#include <cstdio>
#include <string>

#include "bench/hosts/ssh.hpp"
#include "cli/commands.hpp"
#include "cli/identity.hpp"
#include "flags/flags.hpp"

namespace cli {

int cmd_host_info(int argc, char** argv) {
  flags::Table t("host-info");
  t.summary(std::string(summary("host-info")));
  t.about(
      "Plumbing: what `zapbench run` and `zapbench load --loader-hosts` run over\n"
      "ssh on every host before measuring (docs/spec/hosts.md §2): 'key: value'\n"
      "lines naming this binary (version, as the first line of --version, which\n"
      "must equal the coordinator's), the host name, the kernel, the CPU model,\n"
      "the CPUs online (cpu_count) and those this process may run on\n"
      "(allowed_cpus).");
  t.parse(argc, argv);
  std::fputs(bench::host_info_text(version_line()).c_str(), stdout);
  return 0;
}

}  // namespace cli
