// cli/main.cpp — the zapbench binary's entry: dispatch over the list of
// commands (commands.cpp), the top-level help and `--version`. Each command is
// its own file, src/cli/<command>.cpp (serve.cpp, load.cpp, micro.cpp...).
#include <algorithm>
#include <cstdio>
#include <string>
#include <string_view>

#include "cli/commands.hpp"

namespace {

constexpr std::size_t kHelpWidth = 100;  // columns, as every command's --help (flags/flags.cpp)

// `lead` then `text`, wrapped at kHelpWidth, its later lines indented under its first word.
std::string wrapped(std::string lead, std::string_view text) {
  const std::size_t indent = lead.size();
  std::size_t column = indent;
  bool first = true;
  while (!text.empty()) {
    const std::size_t space = text.find(' ');
    const std::string_view word = text.substr(0, space);
    text = space == std::string_view::npos ? std::string_view{} : text.substr(space + 1);
    if (!first && column + 1 + word.size() > kHelpWidth) {
      lead += '\n';
      lead.append(indent, ' ');
      column = indent;
    } else if (!first) {
      lead += ' ';
      ++column;
    }
    lead += word;
    column += word.size();
    first = false;
  }
  return lead + "\n";
}

std::string usage() {
  std::size_t name_width = 0;
  for (const cli::Command& c : cli::commands())
    name_width = std::max(name_width, std::string_view(c.name).size());
  std::string s =
      "usage: zapbench <command> [options]\n"
      "       zapbench --version\n"
      "\n"
      "commands:\n";
  for (bool plumbing : {false, true}) {
    if (plumbing) s += "\nplumbing (used over ssh by run and load --loader-hosts):\n";
    for (const cli::Command& c : cli::commands()) {
      if (c.plumbing != plumbing) continue;
      // The summaries line up after the longest name; a long one wraps under itself.
      std::string line = "  " + std::string(c.name);
      line.resize(2 + name_width + 1, ' ');
      s += wrapped(line, c.summary);
    }
  }
  return s +
         "\nRun 'zapbench <command> --help' (or 'zapbench help <command>') for the options of a command.\n";
}

const cli::Command* find_command(std::string_view name) {
  for (const cli::Command& c : cli::commands())
    if (name == c.name) return &c;
  return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fputs(usage().c_str(), stderr);
    return 2;
  }
  const std::string_view cmd = argv[1];
  if (cmd == "-h" || cmd == "--help" || (cmd == "help" && argc == 2)) {
    std::fputs(usage().c_str(), stdout);
    return 0;
  }
  if (cmd == "--version") return cli::cmd_version(argc - 2, argv + 2);
  if (cmd == "help") {
    // "zapbench help load" is "zapbench load --help".
    const cli::Command* c = find_command(argv[2]);
    if (c == nullptr) {
      std::fprintf(stderr, "zapbench: unknown command '%s'\n\n%s", argv[2], usage().c_str());
      return 2;
    }
    char help_flag[] = "--help";
    char* args[] = {help_flag, nullptr};
    return c->run(1, args);
  }
  if (const cli::Command* c = find_command(cmd)) return c->run(argc - 2, argv + 2);
  std::fprintf(stderr, "zapbench: unknown command '%s'\n\n%s", argv[1], usage().c_str());
  return 2;
}
