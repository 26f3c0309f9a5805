// tests/bench/bench_conformance_test.cpp — h2spec's output read (bench/run/conformance.hpp): its count
// line, each failed case of its JUnit report named (h2spec writes them as <error>; <failure> read too),
// passed and skipped cases not; output without a count line refused; no h2spec named with the reason.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "bench/run/conformance.hpp"

namespace {

constexpr const char* kJunit = R"(<?xml version="1.0" encoding="UTF-8"?>
<testsuites>
  <testsuite name="3.5. HTTP/2 Connection Preface" package="http2/3.5" id="3.5" tests="2" errors="1">
    <testcase package="http2/3.5" classname="Sends client connection preface" time="0.0001"></testcase>
    <testcase package="http2/3.5" classname="Sends invalid connection preface" time="0.0012">
      <error>Connection closed</error>
    </testcase>
  </testsuite>
  <testsuite name="6.9.2" package="http2/6.9.2" id="6.9.2" tests="2" skipped="1">
    <testcase package="http2/6.9.2" classname="Sends a SETTINGS frame" time="0.0001">
      <skipped></skipped>
    </testcase>
    <testcase package="http2/8.1.2.3" classname="Sends a HEADERS frame with empty &#34;:path&#34;" time="0.01">
      <failure>DATA Frame</failure>
    </testcase>
    <testcase package="http2/8.1" classname="Sends a GET request" time="0.01"/>
  </testsuite>
</testsuites>
)";

TEST(bench_conformance, reads_the_counts_and_names_each_failed_case) {
  report::Conformance c;
  ASSERT_TRUE(bench::read_h2spec(
      "...\n145 tests, 141 passed, 1 skipped, 2 failed\n\nFinished\n145 tests, 142 passed, "
      "1 skipped, 2 failed\n",
      kJunit, c));
  EXPECT_EQ(c.cases, 145u);
  EXPECT_EQ(c.passed, 142u) << "the last count line is the summary";
  EXPECT_EQ(c.skipped, 1u);
  EXPECT_EQ(c.failed, 2u);
  EXPECT_EQ(c.failures,
            (std::vector<std::string>{"http2/3.5: Sends invalid connection preface",
                                      "http2/8.1.2.3: Sends a HEADERS frame with empty \":path\""}));
}

TEST(bench_conformance, refuses_output_without_a_count) {
  report::Conformance c;
  EXPECT_FALSE(bench::read_h2spec("Error: dial tcp 127.0.0.1:1: connect: connection refused\n", "", c));
  EXPECT_FALSE(bench::read_h2spec("", kJunit, c));
  EXPECT_TRUE(c.failures.empty());
}

TEST(bench_conformance, no_h2spec_says_why) {
  setenv("ZAPBENCH_H2SPEC", "/opt/h2spec", 1);
  std::string why;
  EXPECT_EQ(bench::find_h2spec(why), "/opt/h2spec");
  unsetenv("ZAPBENCH_H2SPEC");
}

}  // namespace
