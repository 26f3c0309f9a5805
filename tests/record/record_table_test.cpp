// tests/record/record_table_test.cpp — everything that lists codecs follows
// src/record/codecs.table, in its order: the registry (`zapbench codecs`,
// results.json), the compile-time list (benchmarks, typed tests), the fuzz
// targets (fuzz/codec_targets.cmake, passed in as ZAPBENCH_FUZZ_CODECS, comma
// separated) and
// `scripts/deps.sh --print-packages`. The table is read here with a parser of
// its own, so a fault in the CMake reading shows too. Fails when any two
// disagree.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "record/codecs.hpp"
#include "record/registry.hpp"

namespace {

struct Row {
  std::string name, class_name, content_type, rank, sources, debian;
};

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

std::vector<Row> read_table() {
  std::ifstream in(ZAPBENCH_SOURCE_DIR "/src/record/codecs.table");
  EXPECT_TRUE(in) << "cannot read " ZAPBENCH_SOURCE_DIR "/src/record/codecs.table";
  std::vector<Row> rows;
  for (std::string line; std::getline(in, line);) {
    line = trim(line);
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> cols;
    std::stringstream ss(line);
    for (std::string col; std::getline(ss, col, '|');) cols.push_back(trim(col));
    EXPECT_EQ(cols.size(), 9u) << line;
    if (cols.size() != 9) continue;
    // Several packages are blank-separated in the table and one blank apart in the registry.
    std::string debian;
    std::stringstream packages(cols[5] == "-" ? "" : cols[5]);
    for (std::string p; packages >> p;) debian += (debian.empty() ? "" : " ") + p;
    rows.push_back({cols[0], cols[1], cols[2], cols[3], cols[4], debian});
  }
  return rows;
}

std::vector<std::string> registry_names(bool available_only) {
  std::vector<std::string> out;
  for (const record::CodecInfo& c : record::all_codecs())
    if (c.available || !available_only) out.emplace_back(c.name);
  return out;
}

std::vector<std::string> split(std::string_view list, char sep) {
  std::vector<std::string> out;
  std::stringstream ss{std::string(list)};
  for (std::string item; std::getline(ss, item, sep);)
    if (!item.empty()) out.push_back(item);
  return out;
}

TEST(record_table, registry_lists_every_row_in_table_order) {
  const std::vector<Row> rows = read_table();
  ASSERT_EQ(record::all_codecs().size(), rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const record::CodecInfo& c = record::all_codecs()[i];
    SCOPED_TRACE(rows[i].name);
    EXPECT_EQ(c.name, rows[i].name);
    EXPECT_EQ(c.content_type, rows[i].content_type);
    EXPECT_EQ(c.debian_package, rows[i].debian) << "known whether or not the codec is available";
  }
}

TEST(record_table, report_order_is_zap_then_direct_then_the_json_libraries_then_the_binary_peers) {
  const std::vector<std::string> names = registry_names(false);
  ASSERT_GE(names.size(), 2u);
  EXPECT_EQ(names[0], "zap");
  EXPECT_EQ(names[1], "direct");
  std::size_t i = 2;
  while (i < names.size() && record::all_codecs()[i].family() == matrix::Family::json) ++i;
  for (; i < names.size(); ++i)
    EXPECT_EQ(record::all_codecs()[i].family(), matrix::Family::peer) << names[i] << " after a binary peer";
}

TEST(record_table, a_variant_follows_its_base_and_shares_its_packages) {
  const std::vector<Row> rows = read_table();
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const std::size_t dash = rows[i].name.find('-');
    if (dash == std::string::npos) continue;
    const std::string base = rows[i].name.substr(0, dash);
    std::size_t k = i;
    while (k > 0 && rows[k - 1].name.rfind(base, 0) == 0) --k;
    ASSERT_LT(k, i) << rows[i].name << ": no row " << base << " before it";
    EXPECT_EQ(rows[k].name, base) << rows[i].name;
    EXPECT_EQ(rows[k].debian, rows[i].debian) << rows[i].name;
  }
}

TEST(record_table, the_fastest_binary_peer_is_the_available_one_of_lowest_rank) {
  const record::CodecInfo* want = nullptr;
  for (const record::CodecInfo& c : record::all_codecs()) {
    if (c.family() != matrix::Family::peer || !c.available || c.rank == 0 || c.trusted_input_only) continue;
    if (want == nullptr || c.rank < want->rank) want = &c;
  }
  EXPECT_EQ(record::fastest_binary_peer(), want);
}

TEST(record_table, compile_time_list_is_the_registrys_available_codecs) {
  std::vector<std::string> listed;
  record::AvailableCodecs::for_each([&]<class C>() { listed.emplace_back(C::kName); });
  EXPECT_EQ(listed, registry_names(true));
  // And each class is the one its row names.
  std::vector<std::string> classes;
  for (const record::table::Row& r : record::table::kRows)
    if (r.available) classes.emplace_back(r.class_name);
  std::vector<std::string> want;
  for (const Row& r : read_table())
    for (const std::string& name : listed)
      if (r.name == name) want.push_back(r.class_name);
  EXPECT_EQ(classes, want);
}

TEST(record_table, fuzz_targets_are_the_registrys_available_codecs) {
  EXPECT_EQ(split(ZAPBENCH_FUZZ_CODECS, ','), registry_names(true));
}

TEST(record_table, deps_installs_every_codecs_package) {
  const std::string cmd = "bash '" ZAPBENCH_SOURCE_DIR "/scripts/deps.sh' --print-packages";
  FILE* pipe = ::popen(cmd.c_str(), "r");
  ASSERT_NE(pipe, nullptr) << cmd;
  std::string out;
  char buf[4096];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, pipe)) > 0;) out.append(buf, n);
  ASSERT_EQ(::pclose(pipe), 0) << cmd;
  const std::vector<std::string> printed = split(out, '\n');
  const std::set<std::string> packages(printed.begin(), printed.end());
  EXPECT_EQ(packages.size(), printed.size()) << "a package listed twice:\n" << out;
  // Every codec's packages, available in this build or not, and in table order (a package two rows
  // share, at its first).
  std::vector<std::string> want, got;
  for (const record::CodecInfo& c : record::all_codecs()) {
    for (const std::string& p : split(c.debian_package, ' ')) {
      EXPECT_EQ(packages.count(p), 1u) << c.name << ": " << p;
      if (std::find(want.begin(), want.end(), p) == want.end()) want.push_back(p);
    }
  }
  for (const std::string& p : printed)
    for (const std::string& w : want)
      if (p == w) got.push_back(p);
  EXPECT_EQ(got, want);
}

TEST(record_table, unavailable_codecs_say_why_and_available_ones_run) {
  for (const record::CodecInfo& c : record::all_codecs()) {
    SCOPED_TRACE(std::string(c.name));
    EXPECT_EQ(c.available, c.make != nullptr);
    EXPECT_EQ(c.available, c.unavailable_reason.empty());
    if (c.available) {
      EXPECT_FALSE(c.encode_path.empty());
      EXPECT_FALSE(c.decode_path.empty());
    }
  }
}

TEST(record_table, default_json_codec_is_the_available_one_of_lowest_rank) {
  const record::CodecInfo* want = nullptr;
  int want_rank = 0;
  for (const Row& r : read_table()) {
    if (r.rank == "-" || r.content_type != "application/json") continue;
    const record::CodecInfo* c = record::find_codec(r.name);
    ASSERT_NE(c, nullptr) << r.name;
    if (c->available && (want == nullptr || std::stoi(r.rank) < want_rank)) {
      want = c;
      want_rank = std::stoi(r.rank);
    }
  }
  ASSERT_NE(want, nullptr);
  EXPECT_EQ(record::default_json_codec().name, want->name);
}

}  // namespace
