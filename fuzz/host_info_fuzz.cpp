// fuzz/host_info_fuzz.cpp — libFuzzer target for bench::parse_host_info
// (bench/hosts/ssh.hpp, docs/spec/hosts.md §2): the `zapbench host-info` text the
// preflight reads from every remote host. Any input either throws
// std::runtime_error starting "host-info output unreadable: " or gives a
// HostInfo that holds the parser's promises (a version, 1..1,000,000 CPUs,
// a non-empty CPU list); that HostInfo written back as host-info text
// ("key: value" lines, the CPUs with net::cpu_list_text) reads back equal.
// Any other exception, crash or sanitizer report is a finding. Seeds:
// fuzz/host_info_seeds/.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include "bench/hosts/ssh.hpp"
#include "net/affinity.hpp"

namespace {

void check(bool ok) {
  if (!ok) __builtin_trap();
}

std::string text_of(const bench::HostInfo& h) {
  return "version: " + h.version + "\nhostname: " + h.hostname + "\nkernel: " + h.kernel +
         "\ncpu_model: " + h.cpu_model + "\ncpu_count: " + std::to_string(h.cpu_count) +
         "\nallowed_cpus: " + net::cpu_list_text(h.allowed_cpus) + "\n";
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  bench::HostInfo h;
  try {
    h = bench::parse_host_info(text);
  } catch (const std::runtime_error& e) {
    check(std::string_view(e.what()).starts_with("host-info output unreadable: "));
    return 0;
  }
  check(!h.version.empty());
  check(h.cpu_count >= 1 && h.cpu_count <= 1'000'000);
  check(!h.allowed_cpus.empty());
  const bench::HostInfo back = bench::parse_host_info(text_of(h));
  check(back.version == h.version && back.hostname == h.hostname && back.kernel == h.kernel &&
        back.cpu_model == h.cpu_model && back.cpu_count == h.cpu_count &&
        back.allowed_cpus == h.allowed_cpus);
  return 0;
}
