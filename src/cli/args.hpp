// cli/args.hpp — the little argument-parsing vocabulary every subcommand
// shares: fatal usage errors, whole numbers, HOST:PORT and CPU lists.
#pragma once

#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

namespace cli {

[[noreturn]] inline void die(const std::string& msg) {
  std::fprintf(stderr, "zapbench: %s\n", msg.c_str());
  std::exit(2);
}

template <class T>
bool parse_uint(std::string_view s, T& out) {
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return !s.empty() && ec == std::errc{} && p == s.data() + s.size();
}

// The value after flag argv[i] (advancing i), or a usage error.
inline std::string flag_value(int argc, char** argv, int& i, std::string_view command) {
  if (i + 1 >= argc)
    die(std::string(argv[i]) + " needs a value (see 'zapbench " + std::string(command) + " --help')");
  return argv[++i];
}

template <class T>
T flag_uint(int argc, char** argv, int& i, std::string_view command) {
  const std::string flag = argv[i];
  const std::string v = flag_value(argc, argv, i, command);
  T out{};
  if (!parse_uint(v, out)) die(flag + " wants a whole number, got '" + v + "'");
  return out;
}

// "HOST:PORT", "[V6]:PORT" or ":PORT" (every interface).
inline bool parse_host_port(std::string_view s, std::string& host, std::uint16_t& port) {
  const auto colon = s.rfind(':');
  if (colon == std::string_view::npos) return false;
  std::string_view h = s.substr(0, colon);
  if (h.size() >= 2 && h.front() == '[' && h.back() == ']') h = h.substr(1, h.size() - 2);
  host = std::string(h);
  return parse_uint(s.substr(colon + 1), port);
}

// "0,2,4-7" -> {0, 2, 4, 5, 6, 7}.
inline bool parse_cpu_list(std::string_view s, std::vector<int>& out) {
  while (!s.empty()) {
    const auto comma = s.find(',');
    const std::string_view item = s.substr(0, comma);
    const auto dash = item.find('-');
    unsigned a = 0, b = 0;
    if (dash == std::string_view::npos) {
      if (!parse_uint(item, a)) return false;
      b = a;
    } else if (!parse_uint(item.substr(0, dash), a) || !parse_uint(item.substr(dash + 1), b) || b < a) {
      return false;
    }
    for (unsigned c = a; c <= b; ++c) out.push_back(static_cast<int>(c));
    s = comma == std::string_view::npos ? std::string_view{} : s.substr(comma + 1);
  }
  return !out.empty();
}

}  // namespace cli
