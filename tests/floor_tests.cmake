# tests/floor_tests.cmake — the floor arm (included from tests/CMakeLists.txt, in its scope): the raw TCP
# echo (server/floor.cpp) with the load engine's floor wire in process, and `zapbench floor` from outside.

# In process: byte accounting, pipelining, split requests, a peer that leaves, stop(), zero allocations
# per request (the benchmarks' counting operator new).
add_executable(floor_test floor_test.cpp ${PROJECT_SOURCE_DIR}/src/micro/alloc_counter.cpp)
target_link_libraries(floor_test PRIVATE load server GTest::gtest_main)
gtest_discover_tests(floor_test PROPERTIES TIMEOUT ${ZAPBENCH_HANG_TIMEOUT_S})

# `zapbench floor` and `zapbench load --wire floor` as a user runs them: the bound port printed, a run with
# responses and no errors, SIGTERM -> exit 0 + counters, usage errors -> exit 2.
add_test(NAME floor_cli COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/floor_cli_test.sh $<TARGET_FILE:zapbench>)
set_tests_properties(floor_cli PROPERTIES TIMEOUT ${ZAPBENCH_HANG_TIMEOUT_S})
