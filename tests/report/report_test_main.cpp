// tests/report/report_test_main.cpp — report_test's main: gtest's, or
// `report_test --write-synthetic FILE`, which writes the synthetic run as
// results.json for report_html_test.sh.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "fixtures.hpp"

int main(int argc, char** argv) {
  if (argc == 3 && std::string(argv[1]) == "--write-synthetic") {
    std::ofstream out(argv[2], std::ios::binary);
    out << report::to_json(fixtures::synthetic());
    return out.good() ? 0 : 1;
  }
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
