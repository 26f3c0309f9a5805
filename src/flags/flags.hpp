// flags/flags.hpp — one flag table per command: the table parses a command's
// arguments, validates each value with its unit and bounds, and prints the
// command's --help from the same entries, so the help cannot drift from the
// flags. Owns value syntax (numbers, durations, rates, HOST:PORT, CPU lists,
// lists, choices) and the one-line usage errors; owns no command's logic.
// Used by every `zapbench` subcommand (src/cli) and by `zapbench run`.
//
//   flags::Table t("load");
//   t.number("-c, --connections", &o.connections, {1, 1'000'000}, "connections");
//   t.duration("-d, --duration", &o.duration_s, {0, 86400, true}, "recorded time");
//   t.parse(argc, argv);   // --help: prints and exits 0; a bad value: one line, exit 2
//
// Value syntax (wrk's where wrk has one):
//   whole numbers   decimal digits only ("10"; no sign, no suffix)
//   durations       10s, 500ms, 250us, 1m, 2h, 1.5s; a plain number is seconds
//   rates           1000 or 1000/s (requests per second)
//   HOST:PORT       127.0.0.1:8080, [::1]:8080, :8080 (every interface)
//   CPU lists       1 or 0,2,4-7
//   lists           comma separated: hello,rpc
//   switches        --full; --name=true / --name=false also accepted
// Every flag takes "--name VALUE" and "--name=VALUE"; a one-letter flag also
// "-c10". "--" ends the flags: what follows is positional.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "proc/cpu_list.hpp"

namespace flags {

// ---------------------------------------------------------------- value parsers
// Pure functions: nullopt for malformed text; bounds are the table's job.

std::optional<std::uint64_t> parse_whole(std::string_view s);
// A finite decimal number ("0.1", "3", "1e3"); no leading '+', no "inf"/"nan".
std::optional<double> parse_real(std::string_view s);
// A fraction from "0.05" or "5%" (a number, or a number of hundredths).
std::optional<double> parse_fraction(std::string_view s);
// Seconds from "10", "10s", "500ms", "250us", "1m", "2h", "1.5s"; never negative.
std::optional<double> parse_duration_s(std::string_view s);
// Requests per second from "1000" or "1000/s"; never negative.
std::optional<double> parse_rate_per_s(std::string_view s);

struct HostPort {
  std::string host;  // "" for every interface; brackets of "[::1]" removed
  std::uint16_t port = 0;
  friend bool operator==(const HostPort&, const HostPort&) = default;
};
std::optional<HostPort> parse_host_port(std::string_view s);
std::string to_string(const HostPort& hp);  // "host:port", "[v6]:port"

// "0,2,4-7" -> {0, 2, 4, 5, 6, 7}; every CPU below kMaxCpu, never empty.
inline constexpr int kMaxCpu = 1024;  // glibc's CPU_SETSIZE: sched_setaffinity takes no more
std::optional<std::vector<int>> parse_cpu_list(std::string_view s);
using proc::cpu_list_text;  // "0,2,4,5" (proc/cpu_list.hpp, the one copy)

// "a,b,,c" -> {"a", "b", "c"}: empty items are dropped.
std::vector<std::string> split_list(std::string_view s);

// For --help defaults: 10 -> "10s", 0.5 -> "500ms", 0.00025 -> "250us".
std::string format_duration(double seconds);
std::string format_number(double v);  // "%g"

// ---------------------------------------------------------------- bounds

// Closed [min, max] unless min_exclusive (then (min, max]): "> 0" needs it.
template <class T>
struct Range {
  T min = std::numeric_limits<T>::lowest();
  T max = std::numeric_limits<T>::max();
  bool min_exclusive = false;
  bool contains(T v) const { return (min_exclusive ? v > min : v >= min) && v <= max; }
};

// The bound as a reader wants it: "1..1024", "at least 1", "> 0", ">= 0 and at most 24h".
// `show` formats one bound (a number, a duration...).
template <class T>
std::string describe(const Range<T>& r, const std::function<std::string(T)>& show) {
  const bool has_max = r.max != std::numeric_limits<T>::max();
  if constexpr (std::is_integral_v<T>) {
    const T min = r.min_exclusive ? T(r.min + 1) : r.min;
    if (has_max) return show(min) + ".." + show(r.max);
    if (min > 0) return "at least " + show(min);
    return "";
  } else {
    std::string s;
    if (r.min != std::numeric_limits<T>::lowest()) s = (r.min_exclusive ? "> " : ">= ") + show(r.min);
    if (has_max) s += (s.empty() ? "at most " : " and at most ") + show(r.max);
    return s;
  }
}

// Why a value was refused: the message reads "<flag> wants <wants>, got
// '<value>'" and then ": <note>" when there is one.
struct Problem {
  std::string wants;
  std::string note;
};
using Check = std::function<std::optional<Problem>(std::string_view value)>;
// A check that the value names an executable file; `what` says which in the
// error ("an nginx binary": "--nginx wants an nginx binary, got 'x' (not an executable)").
Check executable(std::string what);

// ---------------------------------------------------------------- one flag

class Flag {
 public:
  // Fluent settings, for the builder calls of Table.
  Flag& required() {
    required_ = true;
    return *this;
  }
  // An old spelling still accepted, with a warning naming the new one.
  Flag& deprecated_alias(std::string old_name) {
    deprecated_names_.push_back(std::move(old_name));
    return *this;
  }
  // The whole flag is kept for old scripts only; `use` says what replaces it
  // ("--body CODEC"). Listed under "deprecated:" in --help, warned on use.
  Flag& deprecated(std::string use) {
    replacement_ = std::move(use);
    return *this;
  }
  Flag& default_text(std::string text) {
    default_text_ = std::move(text);
    return *this;
  }
  Flag& no_default() { return default_text(""); }
  Flag& value_name(std::string name) {
    value_name_ = std::move(name);
    return *this;
  }
  // Runs before the value is stored; a Problem refuses it.
  Flag& check(Check c) {
    check_ = std::move(c);
    return *this;
  }

  const std::vector<std::string>& names() const { return names_; }
  const std::string& name() const { return names_.back(); }  // the long spelling when there is one
  const std::string& value_name() const { return value_name_; }
  bool takes_value() const { return !value_name_.empty(); }
  bool is_required() const { return required_; }
  bool is_deprecated() const { return !replacement_.empty(); }
  bool seen() const { return seen_; }
  // The spelling last given ("-c", "--wire"), else the long name: messages
  // about the flag name it as the user wrote it.
  const std::string& spelling() const { return seen_as_.empty() ? name() : seen_as_; }

 private:
  friend class Table;
  std::vector<std::string> names_;  // "-c", "--connections"
  std::vector<std::string> deprecated_names_;
  std::string replacement_;
  std::string value_name_;  // "" for a switch
  std::string help_;
  std::string default_text_;
  std::string section_;  // the heading it is listed under in --help
  std::string seen_as_;
  bool required_ = false;
  bool repeatable_ = false;  // each use appends: "[--http HOST:PORT]..." in the usage
  bool seen_ = false;
  Check check_;
  std::function<std::optional<Problem>(std::string_view)> apply_;
};

// What parsing found, for callers that must not exit (tests).
struct Outcome {
  enum Kind { ok, help, error } kind = ok;
  std::string message;                // the error: one line, without the "zapbench CMD: " prefix
  std::vector<std::string> warnings;  // deprecations, one line each
};

// ---------------------------------------------------------------- the table

// A target is T or std::optional<T> (then "given" is has_value()).
template <class T>
struct value_of {
  using type = T;
};
template <class T>
struct value_of<std::optional<T>> {
  using type = T;
};
template <class Out>
using value_of_t = typename value_of<Out>::type;
template <class Out>
inline constexpr bool is_optional_v = !std::is_same_v<value_of_t<Out>, Out>;

class Table {
 public:
  // `command` as typed after "zapbench" ("load"). Its one-line summary lives
  // in cli/commands.cpp's list of commands (the top-level help), which the
  // command gives to summary() for its own --help. `program` names the
  // binary in usage lines and errors: another binary of the project
  // (zapbench-grpc) parses its commands with the same tables.
  explicit Table(std::string command, std::string program = "zapbench");
  Table(const Table&) = delete;
  Table& operator=(const Table&) = delete;

  // Usage lines in place of the generated one, each without "usage: zapbench
  // CMD" (a command with alternative forms, as load with --framing tcp).
  Table& usage(std::string line);
  // The command's one-line summary, as the top-level help lists it
  // ("serve /health, ..."): the first paragraph of --help, capitalized, with a
  // full stop.
  Table& summary(std::string line);
  // Paragraphs between the usage (and summary) and the flags, printed as written.
  Table& about(std::string text);
  // Flags declared after this are listed under `heading` in --help.
  Table& section(std::string heading);

  // ---- builders. `names`: "--threads" or "-t, --threads". `out` is written
  // only with a valid value; its value at declaration is the help's default.
  // `Out` is T or std::optional<T> (set = given). The table keeps `out` as a
  // pointer: the targets must outlive every parse.

  // A whole number within `range` (unsigned integer types).
  template <class Out>
  Flag& number(std::string names, Out* out, Range<value_of_t<Out>> range, std::string help,
               std::string value_name = "N");
  // A decimal number (a fraction, a factor).
  template <class Out>
  Flag& real(std::string names, Out* out, Range<double> range, std::string help,
             std::string value_name = "X");
  // A fraction, given as "0.05" or "5%"; its default shown as a percentage.
  template <class Out>
  Flag& fraction(std::string names, Out* out, Range<double> range, std::string help,
                 std::string value_name = "FRACTION");
  // A duration, stored in seconds; `range` in seconds.
  template <class Out>
  Flag& duration(std::string names, Out* out_s, Range<double> range_s, std::string help,
                 std::string value_name = "DURATION");
  // A rate, stored in requests per second.
  template <class Out>
  Flag& rate(std::string names, Out* out_per_s, Range<double> range_per_s, std::string help,
             std::string value_name = "RATE");
  Flag& text(std::string names, std::string* out, std::string value_name, std::string help);
  // HOST:PORT; a vector target makes the flag repeatable (each use appends).
  Flag& host_port(std::string names, HostPort* out, std::string help, bool port_zero_ok = true);
  Flag& host_port(std::string names, std::vector<HostPort>* out, std::string help, bool port_zero_ok = true);
  Flag& cpu_list(std::string names, std::vector<int>* out, std::string help);
  // One of `choices` (text, value), listed in the value name and the error.
  template <class Out>
  Flag& choice(std::string names, Out* out, std::vector<std::pair<std::string, value_of_t<Out>>> choices,
               std::string help);
  // A comma-separated list of choices (each item one of them).
  template <class T>
  Flag& choice_list(std::string names, std::vector<T>* out, std::vector<std::pair<std::string, T>> choices,
                    std::string help);
  // A comma-separated list of whole numbers, each within `range`.
  template <class T>
  Flag& number_list(std::string names, std::vector<T>* out, Range<T> range, std::string help);
  // A switch: stores `value` when given (--full, --no-micro). A bool switch
  // also takes "=false" to store the opposite.
  template <class T>
  Flag& set(std::string names, T* out, T value, std::string help);
  // Any other value syntax: `apply` stores it or says what it wants.
  Flag& custom(std::string names, std::string value_name, std::string help, Check apply);

  // Positional arguments, in order; the required ones first.
  Table& positional(std::string name, std::string* out, std::string help, bool required = true);
  // Arguments starting with `prefix` are collected as written, for a library
  // with flags of its own (Google Benchmark's --benchmark_*).
  Table& passthrough(std::string prefix, std::vector<std::string>* out, std::string help);

  // ---- parsing
  // Parses, validates and stores; never prints, never exits. Stops at the
  // first error (flags before it are stored). seen() answers for the last parse.
  Outcome try_parse(std::span<const std::string> args);
  // The command's entry point: warnings to stderr; --help prints help() to
  // stdout and exits 0; an error prints error_line() and exits 2.
  void parse(int argc, char** argv);

  // Was the flag (any of its spellings) given? `name` is any spelling.
  bool seen(std::string_view name) const;
  // The flag as the user spelled it (see Flag::spelling); `name` is any spelling.
  std::string spelling(std::string_view name) const;
  const Flag* find(std::string_view name) const;

  std::string help() const;
  // "usage: zapbench CMD ..." lines only.
  std::string usage_text() const;
  const std::string& command() const { return command_; }
  // "zapbench CMD: <message> (see 'zapbench CMD --help')".
  std::string error_line(std::string_view message) const;
  // For checks across flags after parse(): prints error_line, exits 2.
  [[noreturn]] void fail(std::string_view message) const;

 private:
  Flag& add(std::string names, std::string value_name, std::string help,
            std::function<std::optional<Problem>(std::string_view)> apply);
  // "(default X)" text of a target's current value.
  template <class Out, class Show>
  static std::string default_of(const Out* out, Show show) {
    if constexpr (is_optional_v<Out>) {
      return out->has_value() ? show(**out) : std::string();
    } else {
      return show(*out);
    }
  }
  template <class Out, class V>
  static void store(Out* out, V v) {
    *out = static_cast<value_of_t<Out>>(v);
  }
  Outcome apply(Flag& f, std::string_view spelling, std::string_view value);
  // " (did you mean --connections?)" for a near miss, else "".
  std::string suggestion(std::string_view unknown) const;

  struct Positional {
    std::string name, help;
    std::string* out;
    bool required;
  };
  std::string program_;
  std::string command_;
  std::vector<std::string> usage_lines_;
  std::string summary_;
  std::vector<std::string> about_;
  std::string section_;
  std::vector<std::unique_ptr<Flag>> flags_;  // stable addresses: builders return Flag&
  std::vector<Positional> positionals_;
  std::string passthrough_prefix_, passthrough_help_;
  std::vector<std::string>* passthrough_out_ = nullptr;
};

// ---------------------------------------------------------------- builder templates

template <class Out>
Flag& Table::number(std::string names, Out* out, Range<value_of_t<Out>> range, std::string help,
                    std::string value_name) {
  using T = value_of_t<Out>;
  static_assert(std::is_integral_v<T> && std::is_unsigned_v<T>, "number() is for whole numbers >= 0");
  auto show = [](T v) { return std::to_string(v); };
  Flag& f = add(std::move(names), std::move(value_name), std::move(help),
                [out, range, show](std::string_view v) -> std::optional<Problem> {
                  const std::string bound = describe<T>(range, show);
                  const std::optional<std::uint64_t> n = parse_whole(v);
                  if (!n) return Problem{"a whole number" + (bound.empty() ? "" : " " + bound), ""};
                  if (*n > std::numeric_limits<T>::max() || !range.contains(static_cast<T>(*n)))
                    return Problem{bound, ""};
                  store(out, static_cast<T>(*n));
                  return std::nullopt;
                });
  f.default_text_ = default_of(out, show);
  return f;
}

template <class Out>
Flag& Table::real(std::string names, Out* out, Range<double> range, std::string help,
                  std::string value_name) {
  auto show = [](double v) { return format_number(v); };
  Flag& f = add(std::move(names), std::move(value_name), std::move(help),
                [out, range, show](std::string_view v) -> std::optional<Problem> {
                  const std::string bound = describe<double>(range, show);
                  const std::optional<double> x = parse_real(v);
                  if (!x || !range.contains(*x))
                    return Problem{"a number" + (bound.empty() ? "" : " " + bound), ""};
                  store(out, *x);
                  return std::nullopt;
                });
  f.default_text_ = default_of(out, show);
  return f;
}

template <class Out>
Flag& Table::fraction(std::string names, Out* out, Range<double> range, std::string help,
                      std::string value_name) {
  auto show = [](double v) { return format_number(v * 100) + "%"; };
  Flag& f = add(std::move(names), std::move(value_name), std::move(help),
                [out, range, show](std::string_view v) -> std::optional<Problem> {
                  const std::string bound = describe<double>(range, show);
                  const std::optional<double> x = parse_fraction(v);
                  if (!x || !range.contains(*x))
                    return Problem{"a fraction (0.05 or 5%)" + (bound.empty() ? "" : " " + bound), ""};
                  store(out, *x);
                  return std::nullopt;
                });
  f.default_text_ = default_of(out, show);
  return f;
}

template <class Out>
Flag& Table::duration(std::string names, Out* out_s, Range<double> range_s, std::string help,
                      std::string value_name) {
  auto show = [](double s) { return format_duration(s); };
  Flag& f = add(std::move(names), std::move(value_name), std::move(help),
                [out_s, range_s, show](std::string_view v) -> std::optional<Problem> {
                  const std::string bound = describe<double>(range_s, show);
                  const std::optional<double> s = parse_duration_s(v);
                  if (!s || !range_s.contains(*s))
                    return Problem{"a duration" + (bound.empty() ? "" : " " + bound) +
                                       " (e.g. 10s, 500ms, 250us, 1m, 2h; a plain number is seconds)",
                                   ""};
                  store(out_s, *s);
                  return std::nullopt;
                });
  f.default_text_ = default_of(out_s, show);
  return f;
}

template <class Out>
Flag& Table::rate(std::string names, Out* out_per_s, Range<double> range_per_s, std::string help,
                  std::string value_name) {
  auto show = [](double r) { return format_number(r); };
  Flag& f =
      add(std::move(names), std::move(value_name), std::move(help),
          [out_per_s, range_per_s, show](std::string_view v) -> std::optional<Problem> {
            const std::string bound = describe<double>(range_per_s, show);
            const std::optional<double> r = parse_rate_per_s(v);
            if (!r || !range_per_s.contains(*r))
              return Problem{
                  "requests per second" + (bound.empty() ? "" : " " + bound) + " (e.g. 1000 or 1000/s)", ""};
            store(out_per_s, *r);
            return std::nullopt;
          });
  // A rate's default is usually "none" (closed loop): shown only when set.
  if constexpr (!is_optional_v<Out>) {
    if (*out_per_s > 0) f.default_text_ = show(*out_per_s) + "/s";
  } else {
    f.default_text_ = default_of(out_per_s, [&show](double r) { return show(r) + "/s"; });
  }
  return f;
}

namespace detail {
template <class T>
std::string choice_names(const std::vector<std::pair<std::string, T>>& choices, std::string_view sep) {
  std::string s;
  for (const auto& c : choices) {
    if (!s.empty()) s += sep;
    s += c.first;
  }
  return s;
}
}  // namespace detail

template <class Out>
Flag& Table::choice(std::string names, Out* out, std::vector<std::pair<std::string, value_of_t<Out>>> choices,
                    std::string help) {
  const std::string value_name = detail::choice_names(choices, "|");
  Flag& f = add(std::move(names), value_name, std::move(help),
                [out, choices](std::string_view v) -> std::optional<Problem> {
                  for (const auto& c : choices)
                    if (c.first == v) {
                      store(out, c.second);
                      return std::nullopt;
                    }
                  return Problem{"one of " + detail::choice_names(choices, ", "), ""};
                });
  f.default_text_ = default_of(out, [&choices](const value_of_t<Out>& v) {
    for (const auto& c : choices)
      if (c.second == v) return c.first;
    return std::string();
  });
  return f;
}

template <class T>
Flag& Table::choice_list(std::string names, std::vector<T>* out,
                         std::vector<std::pair<std::string, T>> choices, std::string help) {
  help += (help.empty() ? "" : "; ") + std::string("any of ") + detail::choice_names(choices, ",");
  Flag& f = add(std::move(names), "LIST", std::move(help),
                [out, choices](std::string_view v) -> std::optional<Problem> {
                  const Problem wants{"a comma-separated list of " + detail::choice_names(choices, ", "), ""};
                  std::vector<T> values;
                  for (const std::string& item : split_list(v)) {
                    const auto it = std::find_if(choices.begin(), choices.end(),
                                                 [&](const auto& c) { return c.first == item; });
                    if (it == choices.end()) return Problem{wants.wants, "unknown '" + item + "'"};
                    values.push_back(it->second);
                  }
                  if (values.empty()) return wants;
                  *out = std::move(values);
                  return std::nullopt;
                });
  std::string def;
  for (const T& v : *out)
    for (const auto& c : choices)
      if (c.second == v) {
        if (!def.empty()) def += ',';
        def += c.first;
      }
  f.default_text_ = def;
  return f;
}

template <class T>
Flag& Table::number_list(std::string names, std::vector<T>* out, Range<T> range, std::string help) {
  static_assert(std::is_integral_v<T> && std::is_unsigned_v<T>, "number_list() is for whole numbers >= 0");
  auto show = [](T v) { return std::to_string(v); };
  Flag& f =
      add(std::move(names), "LIST", std::move(help),
          [out, range, show](std::string_view v) -> std::optional<Problem> {
            const std::string bound = describe<T>(range, show);
            const Problem wants{
                "a comma-separated list of whole numbers" + (bound.empty() ? "" : ", each " + bound), ""};
            std::vector<T> values;
            for (const std::string& item : split_list(v)) {
              const std::optional<std::uint64_t> n = parse_whole(item);
              if (!n || *n > std::numeric_limits<T>::max() || !range.contains(static_cast<T>(*n)))
                return Problem{wants.wants, "bad item '" + item + "'"};
              values.push_back(static_cast<T>(*n));
            }
            if (values.empty()) return wants;
            *out = std::move(values);
            return std::nullopt;
          });
  std::string def;
  for (T v : *out) {
    if (!def.empty()) def += ',';  // appends: GCC 12 -O3 sees a false -Wrestrict in "," + string
    def += show(v);
  }
  f.default_text_ = def;
  return f;
}

template <class T>
Flag& Table::set(std::string names, T* out, T value, std::string help) {
  // A switch has no value name; "--name=false" reaches apply for bools only.
  Flag& f =
      add(std::move(names), "", std::move(help), [out, value](std::string_view v) -> std::optional<Problem> {
        if (v.empty() || v == "true") {
          *out = value;
          return std::nullopt;
        }
        if constexpr (std::is_same_v<T, bool>) {
          if (v == "false") {
            *out = !value;
            return std::nullopt;
          }
          return Problem{"no value, or =true / =false", ""};
        }
        return Problem{"no value", ""};
      });
  return f;
}

}  // namespace flags
