// fuzz/remote_protocol_fuzz.cpp — libFuzzer target for the hosts' line
// protocols (bench/hosts/remote_protocol.hpp, docs/spec/hosts.md §3–§4): what the
// coordinator reads from a coordinated loader (LoaderStream) and from a
// `zapbench child` agent (AgentReports), and what the agent reads from the
// coordinator (ControlStream). The first byte picks the reader and the mode:
//   raw:   the rest is the stream. Fed whole and fed in chunks (sizes from
//          the second byte's seed, empty chunks included), the reader ends in
//          the same state (events, result, error); its error is printable
//          text; a result is never larger than its bound.
//   model: the rest is a program of events (warm, go-ack, result BYTES;
//          ready, ready-end, exit; file, start, stop, lines after start)
//          written with the real writers (ready_line, exit_report_line,
//          control_text), fed in chunks: it reads back as the same events,
//          with no error, and the first go-ack is timed by the chunk that
//          completed its line.
// Any crash, sanitizer report or broken property is a finding.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "bench/hosts/remote_protocol.hpp"

namespace {

void check(bool ok) {
  if (!ok) __builtin_trap();
}

bool printable(const std::string& s) {
  for (const char c : s)
    if (c < 0x20 || c > 0x7e) return false;
  return true;
}

// `bytes` cut into chunks whose sizes come from `seed` (0..40 bytes, now
// and then a large one), each handed to `feed(chunk, index)`.
template <class Feed>
void in_chunks(std::string_view bytes, std::uint32_t seed, Feed feed) {
  std::uint32_t x = seed * 2654435761u + 1;
  std::int64_t i = 0;
  for (std::size_t at = 0; at < bytes.size(); ++i) {
    x = x * 1664525u + 1013904223u;
    std::size_t n = (x >> 24) % 41;
    if ((x & 0xff) == 7) n = 5000;
    n = std::min(n, bytes.size() - at);
    feed(bytes.substr(at, n), i);
    at += n;
  }
  feed(std::string_view(), i);  // an empty read changes nothing
}

// ---------------------------------------------------------------- LoaderStream

struct LoaderState {
  bool warm;
  bool acked;
  std::optional<std::string> result;
  std::string error;
  bool operator==(const LoaderState&) const = default;
};
LoaderState state_of(const bench::LoaderStream& s) {
  return {s.warm(), s.ack_ns() >= 0, s.result(), s.error()};
}

void loader_raw(std::string_view bytes, std::uint32_t seed) {
  bench::LoaderStream whole;
  whole.feed(bytes, 0);
  bench::LoaderStream split;
  in_chunks(bytes, seed, [&](std::string_view c, std::int64_t i) { split.feed(c, i); });
  check(state_of(whole) == state_of(split));
  check(printable(whole.error()));
  check(!whole.result() || whole.result()->size() <= bench::kMaxLoadResultBytes);
}

void loader_model(FuzzedDataProvider& in, std::uint32_t seed) {
  std::string text;
  bool warm = false;
  std::optional<std::size_t> first_ack_end;  // the offset just past the first go-ack's '\n'
  std::optional<std::string> result;
  while (in.remaining_bytes() > 0 && !result) {
    switch (in.ConsumeIntegralInRange(0, 2)) {
      case 0:
        text += "warm\n";
        warm = true;
        break;
      case 1:
        text += "go-ack\n";
        if (!first_ack_end) first_ack_end = text.size();
        break;
      default:
        result = in.ConsumeRandomLengthString(4096);
        text += "result " + std::to_string(result->size()) + "\n" + *result;
    }
  }
  bench::LoaderStream s;
  std::int64_t ack_chunk = -1;
  std::size_t fed = 0;
  in_chunks(text, seed, [&](std::string_view c, std::int64_t i) {
    if (first_ack_end && ack_chunk < 0 && fed < *first_ack_end && fed + c.size() >= *first_ack_end)
      ack_chunk = i;
    fed += c.size();
    s.feed(c, i);
  });
  check(s.error().empty());
  check(s.warm() == warm);
  check(s.ack_ns() == ack_chunk);
  check(s.result() == result);
}

// ---------------------------------------------------------------- AgentReports

struct ReportsState {
  std::vector<std::string> listeners;  // as ready lines
  bool ready_end;
  std::string exit;  // as an exit line; empty: none
  std::string error;
  bool operator==(const ReportsState&) const = default;
};
ReportsState state_of(const bench::AgentReports& r) {
  ReportsState st{{}, r.ready_end(), r.exit() ? bench::exit_report_line(*r.exit()) : "", r.error()};
  for (const proc::ReadyListener& l : r.listeners()) st.listeners.push_back(proc::ready_line(l));
  return st;
}

void reports_raw(std::string_view bytes, std::uint32_t seed) {
  bench::AgentReports whole;
  whole.feed(bytes);
  bench::AgentReports split;
  in_chunks(bytes, seed, [&](std::string_view c, std::int64_t) { split.feed(c); });
  check(state_of(whole) == state_of(split));
  check(printable(whole.error()));
  check(whole.listeners().size() <= bench::kMaxReadyListeners);
  // What was read is what the writers write back: a parsed exit line re-reads the same.
  if (whole.exit()) {
    std::string line = bench::exit_report_line(*whole.exit());
    line.pop_back();
    const auto again = bench::parse_exit_report(line);
    check(again && bench::exit_report_line(*again) == line + "\n");
  }
}

// A token without space, newline or anything parse_ready_line splits on.
std::string token(FuzzedDataProvider& in, const char* alphabet, std::size_t max) {
  const std::string_view a(alphabet);
  std::string s;
  const std::size_t n = in.ConsumeIntegralInRange<std::size_t>(1, max);
  for (std::size_t i = 0; i < n; ++i) s += a[in.ConsumeIntegralInRange<std::size_t>(0, a.size() - 1)];
  return s;
}

void reports_model(FuzzedDataProvider& in, std::uint32_t seed) {
  std::string text;
  std::vector<proc::ReadyListener> listeners;
  bool ready_end = false;
  std::optional<bench::ExitStatus> exit;
  while (in.remaining_bytes() > 0 && !exit) {
    const int what = in.ConsumeIntegralInRange(0, 2);
    if (what == 0 && !ready_end && listeners.size() < bench::kMaxReadyListeners) {
      proc::ReadyListener l;
      l.kind = token(in, "abcdefghijklmnopqrstuvwxyz0123456789-_", 12);
      // IPv4 names, or IPv6 ones (ready_line brackets them).
      l.host = in.ConsumeBool() ? token(in, "0123456789.abcdefghijklmnopqrstuvwxyz-", 40)
                                : token(in, "0123456789abcdef:", 39) + ":";
      l.port = in.ConsumeIntegral<std::uint16_t>();
      listeners.push_back(l);
      std::string line = proc::ready_line(l);
      text += "ready " + line;
    } else if (what == 1) {
      if (!ready_end) text += "ready-end\n";
      ready_end = true;
    } else {
      bench::ExitStatus st;
      switch (in.ConsumeIntegralInRange(0, 2)) {
        case 0:
          st.hung = true;
          break;
        case 1:
          st.exited = true;
          st.code = in.ConsumeIntegralInRange(0, 255);
          break;
        default:
          st.signal = in.ConsumeIntegralInRange(1, 64);
      }
      // Whole microseconds: "%.6f" writes them exactly, strtod reads the same double.
      st.cpu_s = double(in.ConsumeIntegralInRange<std::uint64_t>(0, std::uint64_t(1) << 40)) / 1e6;
      text += bench::exit_report_line(st);
      exit = st;
    }
  }
  bench::AgentReports r;
  in_chunks(text, seed, [&](std::string_view c, std::int64_t) { r.feed(c); });
  check(r.error().empty());
  check(r.ready_end() == ready_end);
  check(r.listeners().size() == listeners.size());
  for (std::size_t i = 0; i < listeners.size(); ++i) {
    check(r.listeners()[i].kind == listeners[i].kind);
    check(r.listeners()[i].host == listeners[i].host);
    check(r.listeners()[i].port == listeners[i].port);
  }
  check(r.exit().has_value() == exit.has_value());
  if (exit) {
    check(r.exit()->hung == exit->hung && r.exit()->exited == exit->exited && r.exit()->code == exit->code &&
          r.exit()->signal == exit->signal && r.exit()->cpu_s == exit->cpu_s);
  }
}

// ---------------------------------------------------------------- ControlStream

struct ControlState {
  std::vector<std::string> commands;  // each as kind + name + text/line
  std::string error;
  bool started;
  bool operator==(const ControlState&) const = default;
};
std::string text_of(const bench::ControlStream::Command& c) {
  return std::to_string(int(c.kind)) + "|" + c.file.name + "|" + c.file.text + "|" + c.line;
}
template <class Feed>
ControlState control_read(Feed feed_all) {
  bench::ControlStream s;
  ControlState st;
  feed_all([&](std::string_view chunk) {
    s.feed(chunk);
    while (auto c = s.next()) {
      check(
          c->kind != bench::ControlStream::Command::Kind::file ||
          (bench::valid_remote_file_name(c->file.name) && c->file.text.size() <= bench::kMaxRemoteFileBytes));
      st.commands.push_back(text_of(*c));
    }
  });
  st.error = s.error();
  st.started = s.started();
  return st;
}

void control_raw(std::string_view bytes, std::uint32_t seed) {
  const ControlState whole = control_read([&](auto feed) { feed(bytes); });
  const ControlState split = control_read(
      [&](auto feed) { in_chunks(bytes, seed, [&](std::string_view c, std::int64_t) { feed(c); }); });
  check(whole == split);
  check(printable(whole.error));
}

void control_model(FuzzedDataProvider& in, std::uint32_t seed) {
  std::vector<bench::LaunchFile> files;
  const std::size_t n = in.ConsumeIntegralInRange<std::size_t>(0, 8);
  for (std::size_t i = 0; i < n; ++i) {
    std::string name = in.ConsumeRandomLengthString(40);
    if (!bench::valid_remote_file_name(name)) name = "f" + std::to_string(i);
    files.push_back({name, in.ConsumeRandomLengthString(2000)});
  }
  std::vector<std::string> expected;
  for (const bench::LaunchFile& f : files)
    expected.push_back(text_of({bench::ControlStream::Command::Kind::file, f, ""}));
  expected.push_back(text_of({bench::ControlStream::Command::Kind::start, {}, ""}));
  std::string text = bench::control_text(files);
  // After start: stop, and lines the agent ignores (any bytes but '\n', within the bound).
  while (in.remaining_bytes() > 0) {
    if (in.ConsumeBool()) {
      text += "stop\n";
      expected.push_back(text_of({bench::ControlStream::Command::Kind::stop, {}, ""}));
    } else {
      std::string line = in.ConsumeRandomLengthString(200);
      for (char& c : line)
        if (c == '\n') c = ' ';
      text += line + "\n";
      expected.push_back(text_of({line == "stop" ? bench::ControlStream::Command::Kind::stop
                                                 : bench::ControlStream::Command::Kind::other,
                                  {},
                                  line == "stop" ? "" : line}));
    }
  }
  const ControlState got = control_read(
      [&](auto feed) { in_chunks(text, seed, [&](std::string_view c, std::int64_t) { feed(c); }); });
  check(got.error.empty());
  check(got.started);
  check(got.commands == expected);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  const std::uint8_t mode = data[0];
  const std::uint32_t seed = data[1];
  const std::string_view rest(reinterpret_cast<const char*>(data + 2), size - 2);
  FuzzedDataProvider in(data + 2, size - 2);
  switch (mode % 6) {
    case 0:
      loader_raw(rest, seed);
      break;
    case 1:
      loader_model(in, seed);
      break;
    case 2:
      reports_raw(rest, seed);
      break;
    case 3:
      reports_model(in, seed);
      break;
    case 4:
      control_raw(rest, seed);
      break;
    default:
      control_model(in, seed);
  }
  return 0;
}
