// cli/commands.hpp — the list of zapbench's commands: each one's name, its
// one-line summary and its entry point. `zapbench --help` lists it and main()
// dispatches through it; each command's own --help opens with its line
// (flags::Table::summary(cli::summary("serve"))), so both read one text.
// Each cmd_<command> is defined in its own file, src/cli/<command>.cpp.
#pragma once

#include <span>
#include <string_view>

namespace cli {

int cmd_serve(int argc, char** argv);
int cmd_load(int argc, char** argv);
int cmd_micro(int argc, char** argv);
int cmd_instructions(int argc, char** argv);
int cmd_run(int argc, char** argv);
int cmd_compare(int argc, char** argv);
int cmd_calibrate(int argc, char** argv);
int cmd_report(int argc, char** argv);
int cmd_floor(int argc, char** argv);
int cmd_codecs(int argc, char** argv);
int cmd_version(int argc, char** argv);
int cmd_host_info(int argc, char** argv);
int cmd_child(int argc, char** argv);

struct Command {
  const char* name;
  const char* summary;  // what the command does, in one line of the top-level help
  int (*run)(int argc, char** argv);
  bool plumbing = false;  // listed apart: for zapbench's own use over ssh
};

// Every command, in the order of the top-level help.
std::span<const Command> commands();

// The command's summary ("" for a name not in the list).
std::string_view summary(std::string_view name);

}  // namespace cli
