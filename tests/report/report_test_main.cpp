// tests/report/report_test_main.cpp — report_test's main: gtest's, or
// `report_test --write-synthetic FILE [quick]`, which writes the synthetic
// run (or one shaped as a quick run) as results.json for report_html_test.sh.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "fixtures.hpp"

int main(int argc, char** argv) {
  if ((argc == 3 || (argc == 4 && std::string(argv[3]) == "quick")) &&
      std::string(argv[1]) == "--write-synthetic") {
    std::ofstream out(argv[2], std::ios::binary);
    out << report::to_json(argc == 4 ? fixtures::quick_shaped() : fixtures::synthetic());
    return out.good() ? 0 : 1;
  }
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
