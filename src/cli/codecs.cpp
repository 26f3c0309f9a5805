// cli/codecs.cpp — `zapbench codecs`: every codec of src/record/codecs.table, whether this build has it,
// its encode and decode paths and its Debian package.
#include <cstdio>
#include <string>

#include "cli/commands.hpp"
#include "flags/flags.hpp"
#include "record/registry.hpp"

namespace cli {

int cmd_codecs(int argc, char** argv) {
  flags::Table t("codecs");
  t.summary(std::string(summary("codecs")));
  t.about(
      "Lists every codec zapbench knows, in src/record/codecs.table's order: its\n"
      "content type, whether this build has it (and why not), the exact encode and\n"
      "decode path it uses, and the Debian package of its library.");
  t.parse(argc, argv);
  for (const record::CodecInfo& c : record::all_codecs()) {
    std::printf("%-10.*s %-17.*s ", int(c.name.size()), c.name.data(), int(c.content_type.size()),
                c.content_type.data());
    if (!c.available) {
      std::printf("unavailable: %.*s\n", int(c.unavailable_reason.size()), c.unavailable_reason.data());
    } else {
      std::printf("available%s\n",
                  c.name == record::default_json_codec().name ? " (default JSON codec)" : "");
      std::printf("%-28s encode: %.*s\n", "", int(c.encode_path.size()), c.encode_path.data());
      std::printf("%-28s decode: %.*s\n", "", int(c.decode_path.size()), c.decode_path.data());
    }
    if (!c.debian_package.empty())
      std::printf("%-28s package: %.*s (Debian)\n", "", int(c.debian_package.size()),
                  c.debian_package.data());
  }
  return 0;
}

}  // namespace cli
