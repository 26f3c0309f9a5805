// flags/flags.cpp — the flag table's value parsers, argument walk, errors and
// --help layout (see flags.hpp for the contract and the value syntax).
#include "flags/flags.hpp"

#include <unistd.h>

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>

namespace flags {

// ---------------------------------------------------------------- value parsers

std::optional<std::uint64_t> parse_whole(std::string_view s) {
  std::uint64_t v = 0;
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc{} || p != s.data() + s.size()) return std::nullopt;
  return v;
}

std::optional<double> parse_real(std::string_view s) {
  // from_chars for double would do, but GCC 12's libstdc++ is the oldest that
  // has it and it accepts "inf"/"nan"; strtod on a copy, then refuse those.
  if (s.empty() || s.front() == '+' || s.front() == ' ' || s.front() == '\t') return std::nullopt;
  for (char c : s)
    if (!(std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == 'e' || c == 'E' ||
          c == '+'))
      return std::nullopt;  // no hex floats, no "inf", no locale surprises
  const std::string copy(s);
  char* end = nullptr;
  const double v = std::strtod(copy.c_str(), &end);
  if (end != copy.c_str() + copy.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

std::optional<double> parse_fraction(std::string_view s) {
  const bool hundredths = s.ends_with('%');
  const std::optional<double> v = parse_real(hundredths ? s.substr(0, s.size() - 1) : s);
  if (!v) return std::nullopt;
  return hundredths ? *v / 100 : *v;
}

namespace {

// Splits "500ms" into 500 and "ms": the number is everything up to the first
// letter or '/'.
std::pair<std::string_view, std::string_view> number_and_unit(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size() && !std::isalpha(static_cast<unsigned char>(s[i])) && s[i] != '/') ++i;
  return {s.substr(0, i), s.substr(i)};
}

}  // namespace

std::optional<double> parse_duration_s(std::string_view s) {
  const auto [number, unit] = number_and_unit(s);
  const std::optional<double> v = parse_real(number);
  if (!v || *v < 0) return std::nullopt;
  // wrk's units (s, m, h) plus ms and us for warm-ups and timeouts; a plain
  // number stays seconds, as the flags have always read it.
  double scale_s = 0;
  if (unit.empty() || unit == "s") {
    scale_s = 1;
  } else if (unit == "ms") {
    scale_s = 1e-3;
  } else if (unit == "us") {
    scale_s = 1e-6;
  } else if (unit == "m") {
    scale_s = 60;
  } else if (unit == "h") {
    scale_s = 3600;
  } else {
    return std::nullopt;
  }
  const double seconds = *v * scale_s;
  if (!std::isfinite(seconds)) return std::nullopt;
  return seconds;
}

std::optional<double> parse_rate_per_s(std::string_view s) {
  const auto [number, unit] = number_and_unit(s);
  if (!unit.empty() && unit != "/s") return std::nullopt;
  const std::optional<double> v = parse_real(number);
  if (!v || *v < 0) return std::nullopt;
  return v;
}

std::optional<HostPort> parse_host_port(std::string_view s) {
  const auto colon = s.rfind(':');
  if (colon == std::string_view::npos) return std::nullopt;
  std::string_view host = s.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  } else if (host.find(':') != std::string_view::npos) {
    return std::nullopt;  // an IPv6 address needs its brackets: "[::1]:80"
  }
  const std::optional<std::uint64_t> port = parse_whole(s.substr(colon + 1));
  if (!port || *port > 65535) return std::nullopt;
  return HostPort{std::string(host), static_cast<std::uint16_t>(*port)};
}

std::string to_string(const HostPort& hp) {
  const bool v6 = hp.host.find(':') != std::string::npos;
  return (v6 ? "[" + hp.host + "]" : hp.host) + ":" + std::to_string(hp.port);
}

std::optional<std::vector<int>> parse_cpu_list(std::string_view s) {
  std::vector<int> out;
  for (const std::string& item : split_list(s)) {
    const auto dash = item.find('-');
    std::optional<std::uint64_t> a, b;
    if (dash == std::string::npos) {
      a = b = parse_whole(item);
    } else {
      a = parse_whole(std::string_view(item).substr(0, dash));
      b = parse_whole(std::string_view(item).substr(dash + 1));
    }
    if (!a || !b || *b < *a || *b >= kMaxCpu) return std::nullopt;
    for (std::uint64_t c = *a; c <= *b; ++c) out.push_back(static_cast<int>(c));
  }
  if (out.empty()) return std::nullopt;
  return out;
}

std::vector<std::string> split_list(std::string_view s) {
  std::vector<std::string> out;
  while (!s.empty()) {
    const auto comma = s.find(',');
    const std::string_view item = s.substr(0, comma);
    if (!item.empty()) out.emplace_back(item);
    s = comma == std::string_view::npos ? std::string_view{} : s.substr(comma + 1);
  }
  return out;
}

std::string format_number(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%g", v);
  return b;
}

std::string format_duration(double seconds) {
  // The largest unit in which the value is a whole number reads best
  // ("500ms", not "0.5s"); otherwise seconds as %g.
  const std::pair<double, const char*> units[] = {
      {3600, "h"}, {60, "m"}, {1, "s"}, {1e-3, "ms"}, {1e-6, "us"}};
  if (seconds == 0) return "0s";
  for (auto [scale, name] : units) {
    const double n = seconds / scale;
    if (n >= 1 && std::abs(n - std::round(n)) < 1e-9 * n) return format_number(std::round(n)) + name;
  }
  return format_number(seconds) + "s";
}

// ---------------------------------------------------------------- table

namespace {

std::vector<std::string> split_names(std::string_view names) {
  std::vector<std::string> out;
  while (!names.empty()) {
    const auto comma = names.find(',');
    std::string_view n = names.substr(0, comma);
    while (!n.empty() && n.front() == ' ') n.remove_prefix(1);
    while (!n.empty() && n.back() == ' ') n.remove_suffix(1);
    if (!n.empty()) out.emplace_back(n);
    names = comma == std::string_view::npos ? std::string_view{} : names.substr(comma + 1);
  }
  return out;
}

// Edits (insert, delete, replace one character) from a to b.
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

// "a", "a and b", "a, b and c".
std::string and_list(const std::vector<std::string>& items) {
  std::string s;
  for (std::size_t i = 0; i < items.size(); ++i)
    s += (i == 0 ? "" : i + 1 == items.size() ? " and " : ", ") + items[i];
  return s;
}

constexpr std::size_t kHelpWidth = 100;  // columns of --help
constexpr std::size_t kNameColumn = 28;  // "  --framing http|zap|floor" fits; longer ones put the help below

// Appends `text` wrapped at kHelpWidth, every line after the first indented by `indent`.
void wrap(std::string& out, std::string_view text, std::size_t first_column, std::size_t indent) {
  std::size_t column = first_column;
  bool line_start = true;
  while (!text.empty()) {
    const auto space = text.find(' ');
    const std::string_view word = text.substr(0, space);
    text = space == std::string_view::npos ? std::string_view{} : text.substr(space + 1);
    if (word.empty()) continue;
    if (!line_start && column + 1 + word.size() > kHelpWidth) {
      out += '\n' + std::string(indent, ' ');
      column = indent;
      line_start = true;
    }
    if (!line_start) {
      out += ' ';
      ++column;
    }
    out += word;
    column += word.size();
    line_start = false;
  }
}

}  // namespace

Table::Table(std::string command, std::string program)
    : program_(std::move(program)), command_(std::move(command)) {}

Table& Table::usage(std::string line) {
  usage_lines_.push_back(std::move(line));
  return *this;
}

Table& Table::summary(std::string line) {
  if (!line.empty()) {
    line[0] = char(std::toupper(static_cast<unsigned char>(line[0])));
    if (!line.ends_with(".")) line += ".";
  }
  summary_ = std::move(line);
  return *this;
}

Table& Table::about(std::string text) {
  about_.push_back(std::move(text));
  return *this;
}

Table& Table::section(std::string heading) {
  section_ = std::move(heading);
  return *this;
}

Flag& Table::add(std::string names, std::string value_name, std::string help,
                 std::function<std::optional<Problem>(std::string_view)> apply) {
  auto f = std::make_unique<Flag>();
  f->names_ = split_names(names);
  f->value_name_ = std::move(value_name);
  f->help_ = std::move(help);
  f->section_ = section_;
  f->apply_ = std::move(apply);
  flags_.push_back(std::move(f));
  return *flags_.back();
}

Flag& Table::text(std::string names, std::string* out, std::string value_name, std::string help) {
  Flag& f = add(std::move(names), std::move(value_name), std::move(help),
                [out](std::string_view v) -> std::optional<Problem> {
                  *out = std::string(v);
                  return std::nullopt;
                });
  f.default_text_ = *out;
  return f;
}

namespace {
std::optional<Problem> host_port_problem(std::string_view v, bool port_zero_ok, HostPort& hp) {
  const std::optional<HostPort> p = parse_host_port(v);
  if (!p) return Problem{"HOST:PORT", ""};
  if (p->port == 0 && !port_zero_ok) return Problem{"HOST:PORT", "the port must not be 0"};
  hp = *p;
  return std::nullopt;
}
}  // namespace

Flag& Table::host_port(std::string names, HostPort* out, std::string help, bool port_zero_ok) {
  Flag& f = add(std::move(names), "HOST:PORT", std::move(help),
                [out, port_zero_ok](std::string_view v) { return host_port_problem(v, port_zero_ok, *out); });
  return f;
}

Flag& Table::host_port(std::string names, std::vector<HostPort>* out, std::string help, bool port_zero_ok) {
  Flag& f = add(std::move(names), "HOST:PORT", std::move(help),
                [out, port_zero_ok](std::string_view v) -> std::optional<Problem> {
                  HostPort hp;
                  if (auto p = host_port_problem(v, port_zero_ok, hp)) return p;
                  out->push_back(std::move(hp));
                  return std::nullopt;
                });
  f.repeatable_ = true;
  return f;
}

Flag& Table::cpu_list(std::string names, std::vector<int>* out, std::string help) {
  Flag& f =
      add(std::move(names), "LIST", std::move(help), [out](std::string_view v) -> std::optional<Problem> {
        std::optional<std::vector<int>> cpus = parse_cpu_list(v);
        if (!cpus)
          return Problem{"a CPU list like 1 or 0,2-3 (CPUs below " + std::to_string(kMaxCpu) + ")", ""};
        *out = std::move(*cpus);
        return std::nullopt;
      });
  f.default_text_ = cpu_list_text(*out);
  return f;
}

Flag& Table::custom(std::string names, std::string value_name, std::string help, Check apply) {
  return add(std::move(names), std::move(value_name), std::move(help), std::move(apply));
}

Table& Table::positional(std::string name, std::string* out, std::string help, bool required) {
  positionals_.push_back(Positional{std::move(name), std::move(help), out, required});
  return *this;
}

Table& Table::passthrough(std::string prefix, std::vector<std::string>* out, std::string help) {
  passthrough_prefix_ = std::move(prefix);
  passthrough_out_ = out;
  passthrough_help_ = std::move(help);
  return *this;
}

const Flag* Table::find(std::string_view name) const {
  for (const auto& f : flags_) {
    for (const std::string& n : f->names_)
      if (n == name) return f.get();
    for (const std::string& n : f->deprecated_names_)
      if (n == name) return f.get();
  }
  return nullptr;
}

bool Table::seen(std::string_view name) const {
  const Flag* f = find(name);
  return f != nullptr && f->seen_;
}

std::string Table::suggestion(std::string_view unknown) const {
  // A typo of a long flag (--conections, --warm-up): at most two edits away or a prefix,
  // and never for one-letter flags, where every letter is one edit from another.
  if (unknown.size() <= 3) return "";
  std::string best;
  std::size_t best_edits = 3;
  for (const auto& f : flags_)
    for (const std::string& n : f->names_) {
      if (n.size() <= 2) continue;
      // A prefix ("--timeout" for "--timeout-ms") is as near as one edit.
      const std::size_t edits = n.starts_with(unknown) ? 1 : edit_distance(unknown, n);
      if (edits < best_edits) {
        best_edits = edits;
        best = n;
      }
    }
  return best.empty() ? "" : " (did you mean " + best + "?)";
}

std::string Table::spelling(std::string_view name) const {
  const Flag* f = find(name);
  return f != nullptr ? f->spelling() : std::string(name);
}

Outcome Table::apply(Flag& f, std::string_view spelling, std::string_view value) {
  Outcome o;
  if (f.check_) {
    if (std::optional<Problem> p = f.check_(value)) {
      o.kind = Outcome::error;
      o.message = std::string(spelling) + " wants " + p->wants + ", got '" + std::string(value) + "'" +
                  (p->note.empty() ? "" : ": " + p->note);
      return o;
    }
  }
  if (std::optional<Problem> p = f.apply_(value)) {
    o.kind = Outcome::error;
    o.message = std::string(spelling) + " wants " + p->wants + ", got '" + std::string(value) + "'" +
                (p->note.empty() ? "" : ": " + p->note);
    return o;
  }
  f.seen_ = true;
  f.seen_as_ = std::string(spelling);
  return o;
}

Outcome Table::try_parse(std::span<const std::string> args) {
  Outcome out;
  const auto refuse = [&out](std::string message) {
    out.kind = Outcome::error;
    out.message = std::move(message);
    return out;
  };
  for (auto& f : flags_) {
    f->seen_ = false;
    f->seen_as_.clear();
  }
  std::set<const Flag*> warned;  // one warning per flag, however often it is given
  std::size_t positionals_given = 0;
  bool flags_ended = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    const bool is_flag = !flags_ended && a.size() > 1 && a[0] == '-';
    if (!is_flag) {
      if (positionals_given >= positionals_.size()) return refuse("unexpected argument '" + a + "'");
      *positionals_[positionals_given++].out = a;
      continue;
    }
    if (a == "--") {
      flags_ended = true;
      continue;
    }
    if (a == "-h" || a == "--help") {
      out.kind = Outcome::help;
      return out;
    }
    if (!passthrough_prefix_.empty() && a.starts_with(passthrough_prefix_)) {
      passthrough_out_->push_back(a);
      continue;
    }
    // "--name=value", "--name value", "-c10", "-c 10".
    std::string spelling = a;
    std::optional<std::string> inline_value;
    if (const auto eq = a.find('='); a.starts_with("--") && eq != std::string::npos) {
      spelling = a.substr(0, eq);
      inline_value = a.substr(eq + 1);
    }
    Flag* f = const_cast<Flag*>(find(spelling));
    if (f == nullptr && !a.starts_with("--") && a.size() > 2) {
      f = const_cast<Flag*>(find(a.substr(0, 2)));
      if (f != nullptr && f->takes_value()) {
        spelling = a.substr(0, 2);
        inline_value = a.substr(2);
      } else {
        f = nullptr;
      }
    }
    if (f == nullptr) return refuse("unknown option '" + spelling + "'" + suggestion(spelling));
    if (!warned.contains(f)) {
      const bool old_name = std::find(f->deprecated_names_.begin(), f->deprecated_names_.end(), spelling) !=
                            f->deprecated_names_.end();
      if (f->is_deprecated()) {
        out.warnings.push_back(spelling + " is deprecated: use " + f->replacement_);
        warned.insert(f);
      } else if (old_name) {
        out.warnings.push_back(spelling + " is deprecated: use " + f->name());
        warned.insert(f);
      }
    }
    std::string value;
    if (inline_value) {
      value = *inline_value;
    } else if (f->takes_value()) {
      if (i + 1 >= args.size()) return refuse(spelling + " needs a value (" + f->value_name_ + ")");
      value = args[++i];
    }
    Outcome applied = apply(*f, spelling, value);
    if (applied.kind == Outcome::error) return refuse(applied.message);
  }
  std::vector<std::string> required, missing;
  for (const auto& f : flags_)
    if (f->required_) {
      required.push_back(f->name());
      if (!f->seen_) missing.push_back(f->name());
    }
  if (!missing.empty()) {
    // All of them, then the missing ones: the first reads as the command's contract.
    return refuse(and_list(required) + (required.size() == 1 ? " is" : " are") + " required" +
                  (required.size() == 1 ? "" : "; missing " + and_list(missing)));
  }
  for (std::size_t p = positionals_given; p < positionals_.size(); ++p)
    if (positionals_[p].required) {
      std::vector<std::string> names;
      for (const Positional& q : positionals_)
        if (q.required) names.push_back(q.name);
      return refuse("wants " + and_list(names) + ", got " + std::to_string(positionals_given) + " argument" +
                    (positionals_given == 1 ? "" : "s"));
    }
  return out;
}

void Table::parse(int argc, char** argv) {
  const std::vector<std::string> args(argv, argv + argc);
  const Outcome o = try_parse(args);
  for (const std::string& w : o.warnings)
    std::fprintf(stderr, "%s %s: %s\n", program_.c_str(), command_.c_str(), w.c_str());
  if (o.kind == Outcome::help) {
    std::fputs(help().c_str(), stdout);
    std::exit(0);
  }
  if (o.kind == Outcome::error) fail(o.message);
}

std::string Table::error_line(std::string_view message) const {
  return program_ + " " + command_ + ": " + std::string(message) + " (see '" + program_ + " " + command_ +
         " --help')";
}

void Table::fail(std::string_view message) const {
  std::fprintf(stderr, "%s\n", error_line(message).c_str());
  std::exit(2);
}

namespace {
std::string flag_synopsis(const Flag& f) { return f.name() + (f.takes_value() ? " " + f.value_name() : ""); }
}  // namespace

std::string Table::usage_text() const {
  const std::string lead = "usage: " + program_ + " " + command_;
  std::string out;
  if (!usage_lines_.empty()) {
    // "usage: zapbench load A\n       zapbench load B\n": alternatives aligned under the first.
    for (std::size_t i = 0; i < usage_lines_.size(); ++i)
      out += (i == 0 ? lead : "       " + program_ + " " + command_) + " " + usage_lines_[i] + "\n";
    return out;
  }
  // Generated: the required flags, the optional ones in brackets, the positionals.
  std::vector<std::string> words;
  for (const auto& f : flags_)
    if (f->required_) words.push_back(flag_synopsis(*f));
  for (const auto& f : flags_) {
    if (f->required_ || f->is_deprecated()) continue;
    std::string w = "[";
    w += flag_synopsis(*f);
    w += f->repeatable_ ? "]..." : "]";
    words.push_back(std::move(w));
  }
  if (!passthrough_prefix_.empty())
    words.push_back(std::string("[").append(passthrough_prefix_).append("*...]"));
  for (const Positional& p : positionals_)
    words.push_back(p.required ? p.name : std::string("[").append(p.name).append("]"));
  out = lead;
  std::size_t column = out.size();
  for (const std::string& w : words) {
    if (column + 1 + w.size() > kHelpWidth) {
      out += '\n';
      out.append(lead.size(), ' ');
      column = lead.size();
    }
    out += ' ';
    out += w;
    column += 1 + w.size();
  }
  return out + "\n";
}

std::string Table::help() const {
  std::string out = usage_text();
  if (!summary_.empty()) {
    out += "\n";
    wrap(out, summary_, 0, 0);
    out += "\n";
  }
  for (const std::string& a : about_) out += "\n" + a + (a.ends_with("\n") ? "" : "\n");
  out += "\n";
  const auto line = [&out](const std::string& left, const std::string& what) {
    out += "  " + left;
    if (what.empty()) {
      out += "\n";
      return;
    }
    const std::size_t column = 2 + left.size();
    if (column + 2 > kNameColumn) {  // at least two spaces between a flag and its help
      out += "\n" + std::string(kNameColumn, ' ');
    } else {
      out += std::string(kNameColumn - column, ' ');
    }
    wrap(out, what, kNameColumn, kNameColumn);
    out += "\n";
  };
  for (const Positional& p : positionals_) line(p.name, p.help);
  std::string heading;
  for (const auto& f : flags_) {
    if (f->is_deprecated()) continue;
    if (f->section_ != heading) {
      heading = f->section_;
      out.append("\n").append(heading).append("\n");
    }
    std::string names;
    for (const std::string& n : f->names_) names += (names.empty() ? "" : ", ") + n;
    if (f->takes_value()) names += " " + f->value_name_;
    std::string what = f->help_;
    if (f->required_) what += " (required)";
    if (!f->default_text_.empty()) what += " (default " + f->default_text_ + ")";
    if (!f->deprecated_names_.empty()) what += " (formerly " + and_list(f->deprecated_names_) + ")";
    line(names, what);
  }
  if (!passthrough_prefix_.empty()) line(passthrough_prefix_ + "*", passthrough_help_);
  line("-h, --help", "print this help");
  bool any_deprecated = false;
  for (const auto& f : flags_)
    if (f->is_deprecated()) {
      if (!any_deprecated) out += "\ndeprecated (still accepted, with a warning):\n";
      any_deprecated = true;
      line(flag_synopsis(*f), "use " + f->replacement_);
    }
  return out;
}

Check executable(std::string what) {
  return [what = std::move(what)](std::string_view v) -> std::optional<Problem> {
    if (access(std::string(v).c_str(), X_OK) == 0) return std::nullopt;
    return Problem{what, "not an executable"};
  };
}

}  // namespace flags
