# The report component (src/report): results.json round trip and its errors,
# report.md/report.html content, compare's verdicts (report_test); and
# `zapbench report` / `compare` from the outside, with report.html rendered in
# headless Chromium to prove every chart drew real marks (report_html).
find_package(nlohmann_json 3 REQUIRED)
add_executable(report_test report_test.cpp)
# Own main(): `report_test --write-synthetic FILE` feeds report_html_test.sh.
target_link_libraries(report_test PRIVATE report nlohmann_json::nlohmann_json GTest::gtest)
# A results.json written by an earlier zapbench (before the load gate and the matrix types).
target_compile_definitions(report_test PRIVATE ZAPBENCH_EARLIER_RESULTS="${PROJECT_SOURCE_DIR}/docs/results/results.json")
gtest_discover_tests(report_test)

add_test(NAME report_html COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/report_html_test.sh $<TARGET_FILE:zapbench>
                                  $<TARGET_FILE:report_test>)
set_tests_properties(report_html PROPERTIES TIMEOUT ${ZAPBENCH_HANG_TIMEOUT_S})
