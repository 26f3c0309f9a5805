// tests/bench/bench_remote_protocol_test.cpp — the hosts' line protocols as
// bytes (bench/hosts/remote_protocol.hpp, docs/spec/hosts.md §2–§4), with no
// process: a coordinated loader's stdout (LoaderStream), the agent's control
// input (ControlStream) and its reports (AgentReports), their writers, and
// host-info's parser; every error path (bad or oversize lengths, overlong
// lines, unknown lines, bad names, bytes after the end) gives its message.
// The same bytes split any way give the same result: fuzz/ checks that at
// random, here one byte at a time.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "bench/hosts/remote_protocol.hpp"
#include "bench/hosts/ssh.hpp"

namespace {

using bench::AgentReports;
using bench::ControlStream;
using bench::LoaderStream;
using Kind = ControlStream::Command::Kind;

// `text` fed to a LoaderStream one byte at a time, byte i at time i.
LoaderStream loader_bytewise(const std::string& text) {
  LoaderStream s;
  for (std::size_t i = 0; i < text.size(); ++i) s.feed(std::string_view(text).substr(i, 1), std::int64_t(i));
  return s;
}

LoaderStream loader_whole(const std::string& text, std::int64_t now_ns = 7) {
  LoaderStream s;
  s.feed(text, now_ns);
  return s;
}

TEST(bench_loader_stream, warm_ack_and_result_whole_or_byte_by_byte) {
  const std::string body = "{\"tool\": \"zapbench load\"}\nwith a newline";
  const std::string text = "warm\ngo-ack\ngo-ack\nresult " + std::to_string(body.size()) + "\n" + body;
  const LoaderStream whole = loader_whole(text);
  EXPECT_TRUE(whole.warm());
  EXPECT_EQ(whole.ack_ns(), 7);
  ASSERT_TRUE(whole.result());
  EXPECT_EQ(*whole.result(), body);
  EXPECT_EQ(whole.error(), "");

  const LoaderStream bytes = loader_bytewise(text);
  EXPECT_TRUE(bytes.warm());
  EXPECT_EQ(bytes.ack_ns(), std::int64_t(text.find("go-ack\n") + 6));  // the byte that ended the first go-ack
  ASSERT_TRUE(bytes.result());
  EXPECT_EQ(*bytes.result(), body);
}

TEST(bench_loader_stream, nothing_yet_is_no_error) {
  const LoaderStream s = loader_whole("war");
  EXPECT_FALSE(s.warm());
  EXPECT_FALSE(s.failed());
  const LoaderStream partial = loader_whole("result 10\nabc");
  EXPECT_FALSE(partial.result());
  EXPECT_FALSE(partial.failed());
}

TEST(bench_loader_stream, an_empty_result_is_read_and_left_to_the_result_parser) {
  const LoaderStream s = loader_whole("result 0\n");
  ASSERT_TRUE(s.result());
  EXPECT_EQ(*s.result(), "");
}

TEST(bench_loader_stream, a_result_over_the_bound_is_an_error_before_any_byte_of_it) {
  const std::string text = "result " + std::to_string(bench::kMaxLoadResultBytes + 1) + "\n";
  const LoaderStream s = loader_whole(text);
  EXPECT_FALSE(s.result());
  EXPECT_EQ(s.error(), "a result of 67108865 bytes, more than the bound of 67108864 bytes");
  const LoaderStream huge = loader_whole("result 999999999999\n");
  EXPECT_EQ(huge.error(), "a result of 999999999999 bytes, more than the bound of 67108864 bytes");
}

TEST(bench_loader_stream, a_bad_result_length_is_an_error) {
  for (const char* line : {"result \n", "result -5\n", "result 1x\n", "result  5\n", "result 0x10\n",
                           "result 1234567890123\n"}) {
    const LoaderStream s = loader_whole(line);
    EXPECT_EQ(s.error().rfind("bad result length in \"result", 0), 0u) << line << ": " << s.error();
  }
}

TEST(bench_loader_stream, an_unknown_line_is_an_error_and_what_follows_is_ignored) {
  const LoaderStream s = loader_whole("warm\nhello\x01there\ngo-ack\n");
  EXPECT_TRUE(s.warm());
  EXPECT_EQ(s.error(), "unexpected line \"hello?there\"");
  EXPECT_EQ(s.ack_ns(), -1);  // after the error nothing counts
  const LoaderStream cr = loader_whole("warm\r\n");
  EXPECT_EQ(cr.error(), "unexpected line \"warm?\"");
  const LoaderStream long_line = loader_whole(std::string(100, 'x') + "\n");
  EXPECT_EQ(long_line.error(), "unexpected line \"" + std::string(80, 'x') + "...\"");
}

TEST(bench_loader_stream, an_overlong_line_is_an_error_with_or_without_its_newline) {
  const std::string longest(bench::kMaxProtocolLineBytes, 'w');
  EXPECT_EQ(loader_whole(longest).error(), "");  // not yet too long
  EXPECT_EQ(loader_whole(longest + "w").error(), "a line longer than 4096 bytes");
  EXPECT_EQ(loader_whole(longest + "w\nwarm\n").error(), "a line longer than 4096 bytes");
  EXPECT_EQ(loader_bytewise(longest + "w").error(), "a line longer than 4096 bytes");
  // A garbage stream without newlines stops being buffered at the bound.
  LoaderStream s;
  for (int i = 0; i < 1000; ++i) s.feed(std::string(64 * 1024, 'z'), i);
  EXPECT_EQ(s.error(), "a line longer than 4096 bytes");
}

TEST(bench_loader_stream, bytes_after_the_result_are_an_error) {
  EXPECT_EQ(loader_whole("result 2\nokwarm\n").error(), "bytes after the result");
  LoaderStream s;
  s.feed("result 2\nok", 1);
  EXPECT_FALSE(s.failed());
  s.feed("\n", 2);
  EXPECT_EQ(s.error(), "bytes after the result");
}

// ---------------------------------------------------------------- control

std::vector<ControlStream::Command> commands(ControlStream& s) {
  std::vector<ControlStream::Command> out;
  while (auto c = s.next()) out.push_back(std::move(*c));
  return out;
}

std::vector<ControlStream::Command> control_whole(const std::string& text, std::string* error = nullptr) {
  ControlStream s;
  s.feed(text);
  auto out = commands(s);
  if (error != nullptr) *error = s.error();
  return out;
}

TEST(bench_control_stream, control_text_reads_back_whole_or_byte_by_byte) {
  const std::vector<bench::LaunchFile> files = {{"nginx.conf", "worker_processes 1;\nlisten {port};\n"},
                                                {"a b", ""},
                                                {"bin", std::string("\0\n\n", 3)}};
  const std::string text = bench::control_text(files) + "stop\nstart\nwhatever\n";
  for (const bool bytewise : {false, true}) {
    ControlStream s;
    std::vector<ControlStream::Command> got;
    if (bytewise) {
      for (const char c : text) {
        s.feed(std::string_view(&c, 1));
        for (auto& c2 : commands(s)) got.push_back(std::move(c2));
      }
    } else {
      s.feed(text);
      got = commands(s);
    }
    EXPECT_EQ(s.error(), "");
    ASSERT_EQ(got.size(), 7u);
    for (std::size_t i = 0; i < 3; ++i) {
      EXPECT_EQ(got[i].kind, Kind::file);
      EXPECT_EQ(got[i].file.name, files[i].name);
      EXPECT_EQ(got[i].file.text, files[i].text);
    }
    EXPECT_EQ(got[3].kind, Kind::start);
    EXPECT_EQ(got[4].kind, Kind::stop);
    // After start, `start` and anything else are lines the agent ignores.
    EXPECT_EQ(got[5].kind, Kind::other);
    EXPECT_EQ(got[5].line, "start");
    EXPECT_EQ(got[6].line, "whatever");
    EXPECT_TRUE(s.started());
  }
}

TEST(bench_control_stream, stop_before_start) {
  const auto got = control_whole("stop\n");
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].kind, Kind::stop);
}

TEST(bench_control_stream, a_file_name_with_a_slash_or_a_dot_name_is_an_error) {
  std::string error;
  EXPECT_TRUE(control_whole("file ../etc/passwd 3\nabc", &error).empty());
  EXPECT_EQ(error, "file \"../etc/passwd\": wants a name without '/'");
  control_whole("file .. 0\n", &error);
  EXPECT_EQ(error, "file \"..\": wants a name without '/'");
  control_whole("file . 0\n", &error);
  EXPECT_EQ(error, "file \".\": wants a name without '/'");
}

TEST(bench_control_stream, an_oversize_file_is_an_error_before_its_bytes) {
  std::string error;
  control_whole("file big " + std::to_string(bench::kMaxRemoteFileBytes + 1) + "\n", &error);
  EXPECT_EQ(error, "file \"big\": 1048577 bytes, more than the bound of 1048576");
  control_whole("file big 999999999\n", &error);
  EXPECT_EQ(error, "file \"big\": 999999999 bytes, more than the bound of 1048576");
}

TEST(bench_control_stream, bad_file_lines_and_unknown_lines_are_errors) {
  std::string error;
  for (const char* line : {"file 3\n", "file x\n", "file x -1\n", "file x 1e3\n", "file x 1234567890\n",
                           "file  3\n", "begin\n", "start \n", "\n"}) {
    EXPECT_TRUE(control_whole(line, &error).empty()) << line;
    EXPECT_EQ(error.rfind("bad control line: \"", 0), 0u) << line << ": " << error;
  }
}

TEST(bench_control_stream, too_many_files_is_an_error) {
  std::string text;
  for (std::size_t i = 0; i <= bench::kMaxRemoteFiles; ++i) text += "file f" + std::to_string(i) + " 1\nx";
  std::string error;
  EXPECT_EQ(control_whole(text, &error).size(), bench::kMaxRemoteFiles);
  EXPECT_EQ(error, "more than 64 files");
}

TEST(bench_control_stream, an_overlong_line_is_an_error_before_and_after_start) {
  std::string error;
  control_whole(std::string(bench::kMaxProtocolLineBytes + 1, 'f'), &error);
  EXPECT_EQ(error, "a control line longer than 4096 bytes");
  const auto got = control_whole("start\n" + std::string(bench::kMaxProtocolLineBytes + 1, 's'), &error);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(error, "a control line longer than 4096 bytes");
}

TEST(bench_control_stream, control_text_refuses_what_the_agent_would) {
  EXPECT_THROW(bench::control_text({{"a/b", "x"}}), std::invalid_argument);
  EXPECT_THROW(bench::control_text({{"a\nb", "x"}}), std::invalid_argument);
  EXPECT_THROW(bench::control_text({{"", "x"}}), std::invalid_argument);
  EXPECT_THROW(bench::control_text({{"big", std::string(bench::kMaxRemoteFileBytes + 1, 'x')}}),
               std::invalid_argument);
  EXPECT_THROW(bench::control_text(std::vector<bench::LaunchFile>(bench::kMaxRemoteFiles + 1, {"f", ""})),
               std::invalid_argument);
  EXPECT_EQ(bench::control_text({}), "start\n");
}

// ---------------------------------------------------------------- reports

AgentReports reports_whole(const std::string& text) {
  AgentReports r;
  r.feed(text);
  return r;
}

TEST(bench_agent_reports, ready_lines_then_exit_whole_or_byte_by_byte) {
  bench::ExitStatus st;
  st.exited = true;
  st.code = 3;
  st.cpu_s = 1.25;
  const std::string text =
      "ready http 0.0.0.0:8080\nready zap [::]:9000\nready-end\n" + bench::exit_report_line(st);
  EXPECT_EQ(bench::exit_report_line(st), "exit exit 3 cpu_s 1.250000\n");
  AgentReports bytes;
  for (const char c : text) bytes.feed(std::string_view(&c, 1));
  for (const AgentReports* r : {&bytes}) {
    EXPECT_EQ(r->error(), "");
    ASSERT_EQ(r->listeners().size(), 2u);
    EXPECT_EQ(r->listeners()[1].kind, "zap");
    EXPECT_EQ(r->listeners()[1].host, "::");
    EXPECT_EQ(r->listeners()[1].port, 9000);
    EXPECT_TRUE(r->ready_end());
    ASSERT_TRUE(r->exit());
    EXPECT_TRUE(r->exit()->exited);
    EXPECT_EQ(r->exit()->code, 3);
    EXPECT_DOUBLE_EQ(r->exit()->cpu_s, 1.25);
  }
  const AgentReports whole = reports_whole(text);
  EXPECT_EQ(whole.listeners().size(), 2u);
  EXPECT_TRUE(whole.exit());
}

TEST(bench_agent_reports, exit_lines_round_trip) {
  bench::ExitStatus hung;
  hung.hung = true;
  bench::ExitStatus sig;
  sig.signal = 9;
  sig.cpu_s = 0.000001;
  for (const bench::ExitStatus& st : {hung, sig}) {
    std::string line = bench::exit_report_line(st);
    line.pop_back();
    const auto back = bench::parse_exit_report(line);
    ASSERT_TRUE(back) << line;
    EXPECT_EQ(back->hung, st.hung);
    EXPECT_EQ(back->signal, st.signal);
    EXPECT_EQ(back->exited, st.exited);
    EXPECT_DOUBLE_EQ(back->cpu_s, st.cpu_s);
  }
}

TEST(bench_agent_reports, a_bad_exit_line_is_an_error) {
  for (const char* line : {"exit 0", "exit exit 0 cpu_s", "exit exit 0 cpu_s -1", "exit exit 0 cpu_s inf",
                           "exit exit 0 cpu_s nan", "exit exit 0 cpu_s 1e9", "exit exit 0 cpu_s 0x10",
                           "exit exit 0 cpu_s .5", "exit exit 1234 cpu_s 0", "exit exit -1 cpu_s 0",
                           "exit sig 9 cpu_s 0", "exit  cpu_s 0", "exit exit 0 cpu_s 1 2"}) {
    EXPECT_FALSE(bench::parse_exit_report(line)) << line;
    const AgentReports r = reports_whole(std::string(line) + "\n");
    EXPECT_EQ(r.error(), "bad exit report \"" + std::string(line) + "\"") << line;
    EXPECT_FALSE(r.exit());
  }
}

TEST(bench_agent_reports, bad_ready_lines_are_errors) {
  EXPECT_EQ(reports_whole("ready http\n").error(), "bad ready line \"ready http\"");
  EXPECT_EQ(reports_whole("ready http h:99999\n").error(), "bad ready line \"ready http h:99999\"");
  EXPECT_EQ(reports_whole("ready-end\nready http h:1\n").error(),
            "a ready line after ready-end: \"ready http h:1\"");
  std::string many;
  for (std::size_t i = 0; i <= bench::kMaxReadyListeners; ++i)
    many += "ready http h:" + std::to_string(i) + "\n";
  const AgentReports r = reports_whole(many);
  EXPECT_EQ(r.error(), "more than 64 listeners");
  EXPECT_EQ(r.listeners().size(), bench::kMaxReadyListeners);
}

TEST(bench_agent_reports, unknown_overlong_and_trailing_bytes_are_errors) {
  EXPECT_EQ(reports_whole("hello\n").error(), "unexpected line \"hello\"");
  EXPECT_EQ(reports_whole(std::string(bench::kMaxProtocolLineBytes + 1, 'r')).error(),
            "a report line longer than 4096 bytes");
  EXPECT_EQ(reports_whole("exit hung cpu_s 0.000000\nready-end\n").error(), "bytes after the exit report");
  const AgentReports ok = reports_whole("exit hung cpu_s 0.000000\n");
  EXPECT_EQ(ok.error(), "");
  ASSERT_TRUE(ok.exit());
  EXPECT_TRUE(ok.exit()->hung);
}

// ---------------------------------------------------------------- host-info

TEST(bench_host_info, reads_its_own_text_and_tolerates_crlf) {
  const std::string text = bench::host_info_text("zapbench 1.0 (abc)");
  const bench::HostInfo h = bench::parse_host_info(text);
  EXPECT_EQ(h.version, "zapbench 1.0 (abc)");
  EXPECT_GT(h.cpu_count, 0u);
  EXPECT_FALSE(h.allowed_cpus.empty());
  std::string crlf;
  for (const char c : text) crlf += c == '\n' ? std::string("\r\r\n") : std::string(1, c);
  const bench::HostInfo back = bench::parse_host_info(crlf);
  EXPECT_EQ(back.version, h.version);
  EXPECT_EQ(back.hostname, h.hostname);
  EXPECT_EQ(back.allowed_cpus, h.allowed_cpus);
}

TEST(bench_host_info, every_bad_input_names_what_is_wrong) {
  const std::string good =
      "version: v\nhostname: h\nkernel: k\ncpu_model: m\ncpu_count: 4\nallowed_cpus: 0-3\n";
  EXPECT_NO_THROW(bench::parse_host_info(good));
  const auto error_of = [](const std::string& text) {
    try {
      bench::parse_host_info(text);
    } catch (const std::runtime_error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error_of(""), "host-info output unreadable: no version line");
  EXPECT_EQ(error_of(good + "garbage\n"), "host-info output unreadable: garbage");
  EXPECT_EQ(error_of(good + ":x\n"), "host-info output unreadable: :x");
  EXPECT_EQ(error_of(good + "cpu_count: 0\n"), "host-info output unreadable: cpu_count: 0");
  EXPECT_EQ(error_of(good + "cpu_count: 1000001\n"), "host-info output unreadable: cpu_count: 1000001");
  EXPECT_EQ(error_of(good + "cpu_count: -1\n"), "host-info output unreadable: cpu_count: -1");
  EXPECT_EQ(error_of(good + "allowed_cpus: \n"), "host-info output unreadable: allowed_cpus: ");
  EXPECT_EQ(error_of(good + "allowed_cpus: 3-1\n"), "host-info output unreadable: allowed_cpus: 3-1");
  EXPECT_EQ(error_of(good + "version: \n"), "host-info output unreadable: an empty version");
  EXPECT_EQ(error_of("version: v\n"), "host-info output unreadable: no hostname line");
  EXPECT_NO_THROW(bench::parse_host_info(good + "a_newer_key: whatever\n"));
}

}  // namespace
