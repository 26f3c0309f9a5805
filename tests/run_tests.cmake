# `zapbench run` end to end (tests/run_test.cpp): real processes, so it runs
# alone (RUN_SERIAL) and after the binary is built.
add_executable(run_test run_test.cpp)
target_link_libraries(run_test PRIVATE record report GTest::gtest_main)
target_compile_definitions(run_test PRIVATE ZAPBENCH_BIN="$<TARGET_FILE:zapbench>"
                                           ZAPBENCH_EARLIER_RESULTS="${PROJECT_SOURCE_DIR}/docs/results/results.json")
add_dependencies(run_test zapbench)
gtest_discover_tests(run_test PROPERTIES TIMEOUT 600 RUN_SERIAL TRUE)
