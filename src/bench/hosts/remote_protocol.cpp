// bench/hosts/remote_protocol.cpp — the hosts' line protocols (remote_protocol.hpp):
// the bounded line/block cutter, the three readers and the writers. Errors
// quote at most 80 bytes of the offending line, non-printable bytes shown as
// '?', so a binary blob from a broken host makes a readable message.
#include "bench/hosts/remote_protocol.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

namespace bench {
namespace {

// `"<at most 80 bytes of line>"`, printable.
std::string shown(std::string_view line) {
  std::string out = "\"";
  for (const char c : line.substr(0, 80)) out += (c >= 0x20 && c < 0x7f) ? c : '?';
  return out + (line.size() > 80 ? "...\"" : "\"");
}

// A decimal count of at most `max_digits` digits (no sign, no spaces).
std::optional<std::size_t> count_of(std::string_view s, std::size_t max_digits) {
  if (s.empty() || s.size() > max_digits) return std::nullopt;
  std::size_t n = 0;
  for (const char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    n = n * 10 + std::size_t(c - '0');
  }
  return n;
}

std::string overlong_text(const char* what) {
  return std::string(what) + " longer than " + std::to_string(kMaxProtocolLineBytes) + " bytes";
}

}  // namespace

// ---------------------------------------------------------------- ProtocolInput

void ProtocolInput::append(std::string_view bytes) {
  // Drop what was consumed once it is most of the buffer, so a long stream
  // keeps a buffer of about what is still unread.
  if (pos_ == buf_.size()) {
    buf_.clear();
    pos_ = scan_ = 0;
  } else if (pos_ >= 4096 && pos_ >= buf_.size() / 2) {
    buf_.erase(0, pos_);
    scan_ -= pos_;
    pos_ = 0;
  }
  buf_.append(bytes);
}

std::optional<std::string> ProtocolInput::line() {
  if (overlong_) return std::nullopt;
  if (scan_ < pos_) scan_ = pos_;
  const std::size_t nl = buf_.find('\n', scan_);
  if (nl == std::string::npos) {
    scan_ = buf_.size();
    if (buf_.size() - pos_ > kMaxProtocolLineBytes) overlong_ = true;
    return std::nullopt;
  }
  if (nl - pos_ > kMaxProtocolLineBytes) {
    overlong_ = true;
    return std::nullopt;
  }
  std::string out = buf_.substr(pos_, nl - pos_);
  pos_ = scan_ = nl + 1;
  return out;
}

std::optional<std::string> ProtocolInput::block(std::size_t bytes) {
  if (buf_.size() - pos_ < bytes) return std::nullopt;
  std::string out = buf_.substr(pos_, bytes);
  pos_ += bytes;
  scan_ = pos_;
  return out;
}

// ---------------------------------------------------------------- LoaderStream

void LoaderStream::feed(std::string_view bytes, std::int64_t now_ns) {
  if (failed()) return;
  in_.append(bytes);
  for (;;) {
    if (result_) {
      if (in_.buffered() != 0) error_ = "bytes after the result";
      return;
    }
    if (result_bytes_) {
      std::optional<std::string> body = in_.block(*result_bytes_);
      if (!body) return;
      result_ = std::move(body);
      result_bytes_.reset();
      continue;
    }
    const std::optional<std::string> line = in_.line();
    if (!line) {
      if (in_.overlong()) error_ = overlong_text("a line");
      return;
    }
    if (*line + "\n" == kWarmLine) {
      warm_ = true;
    } else if (*line + "\n" == kGoAckLine) {
      if (ack_ns_ < 0) ack_ns_ = now_ns;
    } else if (line->rfind("result ", 0) == 0) {
      // 12 digits read a length far past the bound, never one that wraps.
      const std::optional<std::size_t> n = count_of(std::string_view(*line).substr(7), 12);
      if (!n) {
        error_ = "bad result length in " + shown(*line);
      } else if (*n > kMaxLoadResultBytes) {
        error_ = "a result of " + std::to_string(*n) + " bytes, more than the bound of " +
                 std::to_string(kMaxLoadResultBytes) + " bytes";
      } else {
        result_bytes_ = *n;
        continue;
      }
      return;
    } else {
      error_ = "unexpected line " + shown(*line);
      return;
    }
  }
}

std::string result_text(const std::string& load_result_json) {
  return "result " + std::to_string(load_result_json.size()) + "\n" + load_result_json;
}

std::string_view loader_command_line(LoaderCommand c) { return c == LoaderCommand::go ? "go\n" : "stop\n"; }

std::optional<LoaderCommand> parse_loader_command(std::string_view line) {
  for (const LoaderCommand c : {LoaderCommand::go, LoaderCommand::stop})
    if (loader_command_line(c).substr(0, loader_command_line(c).size() - 1) == line) return c;
  return std::nullopt;
}

// ---------------------------------------------------------------- the remote child's control

bool valid_remote_file_name(std::string_view name) {
  return !name.empty() && name != "." && name != ".." &&
         name.find_first_of(std::string_view("/\n\0", 3)) == std::string_view::npos;
}

std::string control_text(const std::vector<LaunchFile>& files) {
  if (files.size() > kMaxRemoteFiles)
    throw std::invalid_argument("remote child: " + std::to_string(files.size()) + " files, more than " +
                                std::to_string(kMaxRemoteFiles));
  std::string out;
  for (const LaunchFile& f : files) {
    if (!valid_remote_file_name(f.name))
      throw std::invalid_argument("remote child: file name " + shown(f.name) +
                                  " is not a plain name (no '/', no newline)");
    if (f.text.size() > kMaxRemoteFileBytes)
      throw std::invalid_argument("remote child: file " + f.name + " has " + std::to_string(f.text.size()) +
                                  " bytes, more than " + std::to_string(kMaxRemoteFileBytes));
    out += "file " + f.name + " " + std::to_string(f.text.size()) + "\n" + f.text;
  }
  return out + "start\n";
}

void ControlStream::feed(std::string_view bytes) {
  if (error_.empty()) in_.append(bytes);
}

std::optional<ControlStream::Command> ControlStream::next() {
  if (!error_.empty()) return std::nullopt;
  if (file_) {
    std::optional<std::string> body = in_.block(file_bytes_);
    if (!body) return std::nullopt;
    Command c;
    c.kind = Command::Kind::file;
    c.file = std::move(*file_);
    c.file.text = std::move(*body);
    file_.reset();
    return c;
  }
  std::optional<std::string> line = in_.line();
  if (!line) {
    if (in_.overlong()) error_ = overlong_text("a control line");
    return std::nullopt;
  }
  Command c;
  if (*line == "stop") {
    c.kind = Command::Kind::stop;
    return c;
  }
  if (started_) {  // after start only stop means something; the agent logs the rest
    c.kind = Command::Kind::other;
    c.line = std::move(*line);
    return c;
  }
  if (*line == "start") {
    started_ = true;
    c.kind = Command::Kind::start;
    return c;
  }
  const std::size_t space = line->rfind(' ');
  if (line->rfind("file ", 0) != 0 || space <= 5) {
    error_ = "bad control line: " + shown(*line);
    return std::nullopt;
  }
  const std::string name = line->substr(5, space - 5);
  // 9 digits: past the bound, never wrapping.
  const std::optional<std::size_t> bytes = count_of(std::string_view(*line).substr(space + 1), 9);
  if (!bytes) {
    error_ = "bad control line: " + shown(*line);
  } else if (!valid_remote_file_name(name)) {
    error_ = "file " + shown(name) + ": wants a name without '/'";
  } else if (*bytes > kMaxRemoteFileBytes) {
    error_ = "file " + shown(name) + ": " + std::to_string(*bytes) + " bytes, more than the bound of " +
             std::to_string(kMaxRemoteFileBytes);
  } else if (++files_ > kMaxRemoteFiles) {
    error_ = "more than " + std::to_string(kMaxRemoteFiles) + " files";
  } else {
    file_ = LaunchFile{name, {}};
    file_bytes_ = *bytes;
    return next();  // its body may be here already
  }
  return std::nullopt;
}

// ---------------------------------------------------------------- the agent's reports

std::string exit_report_line(const ExitStatus& st) {
  std::string status = st.hung     ? std::string("hung")
                       : st.exited ? "exit " + std::to_string(st.code)
                                   : "signal " + std::to_string(st.signal);
  char cpu[64];
  std::snprintf(cpu, sizeof cpu, "%.6f", std::isfinite(st.cpu_s) && st.cpu_s >= 0 ? st.cpu_s : 0.0);
  return "exit " + status + " cpu_s " + cpu + "\n";
}

std::optional<ExitStatus> parse_exit_report(const std::string& line) {
  if (line.rfind("exit ", 0) != 0) return std::nullopt;
  const auto cpu = line.rfind(" cpu_s ");
  if (cpu == std::string::npos || cpu < 5) return std::nullopt;
  const std::string status = line.substr(5, cpu - 5);
  const std::string seconds = line.substr(cpu + 7);
  // Plain decimals only ("12.345678"): no sign, exponent, hex, inf or nan.
  if (seconds.empty() || seconds.size() > 32 ||
      seconds.find_first_not_of("0123456789.") != std::string::npos || seconds.front() == '.')
    return std::nullopt;
  char* end = nullptr;
  ExitStatus st;
  st.cpu_s = std::strtod(seconds.c_str(), &end);
  if (end != seconds.c_str() + seconds.size() || !std::isfinite(st.cpu_s) || !(st.cpu_s >= 0))
    return std::nullopt;
  // An exit code is 0..255, a signal 1..64: three digits say either.
  const auto number = [](std::string_view s) -> std::optional<int> {
    const std::optional<std::size_t> n = count_of(s, 3);
    if (!n) return std::nullopt;
    return int(*n);
  };
  if (status == "hung") {
    st.hung = true;
  } else if (status.rfind("exit ", 0) == 0 && number(std::string_view(status).substr(5))) {
    st.exited = true;
    st.code = *number(std::string_view(status).substr(5));
  } else if (status.rfind("signal ", 0) == 0 && number(std::string_view(status).substr(7))) {
    st.signal = *number(std::string_view(status).substr(7));
  } else {
    return std::nullopt;
  }
  return st;
}

void AgentReports::feed(std::string_view bytes) {
  if (failed()) return;
  in_.append(bytes);
  for (;;) {
    if (exit_) {
      if (in_.buffered() != 0) error_ = "bytes after the exit report";
      return;
    }
    const std::optional<std::string> line = in_.line();
    if (!line) {
      if (in_.overlong()) error_ = overlong_text("a report line");
      return;
    }
    if (line->rfind("ready ", 0) == 0) {
      const std::optional<proc::ReadyListener> l = proc::parse_ready_line(line->substr(6));
      if (!l) {
        error_ = "bad ready line " + shown(*line);
      } else if (ready_end_) {
        error_ = "a ready line after ready-end: " + shown(*line);
      } else if (listeners_.size() >= kMaxReadyListeners) {
        error_ = "more than " + std::to_string(kMaxReadyListeners) + " listeners";
      } else {
        listeners_.push_back(*l);
        continue;
      }
      return;
    }
    if (*line == "ready-end") {
      ready_end_ = true;
    } else if (line->rfind("exit ", 0) == 0) {
      exit_ = parse_exit_report(*line);
      if (!exit_) {
        error_ = "bad exit report " + shown(*line);
        return;
      }
    } else {
      error_ = "unexpected line " + shown(*line);
      return;
    }
  }
}

}  // namespace bench
