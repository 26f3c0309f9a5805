# tests/hostile_tests.cmake — hostile clients against the live server (included from tests/CMakeLists.txt,
# in its scope): malformed frames and heads, lying lengths, slowloris, idle, a connection flood, resets
# mid-response, clients that never read — while load::run clients on both wires must see no error.
# The raw-socket helpers are tests/server_client.hpp, shared with server_test.
add_executable(hostile_test hostile_test.cpp vectors.hpp)
target_link_libraries(hostile_test PRIVATE server load record net GTest::gtest_main)
target_include_directories(hostile_test PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
target_compile_definitions(hostile_test PRIVATE ZAPBENCH_VECTORS_DIR="${ZAPBENCH_VECTORS_DIR}")
# Alone: its full-speed clients would slow the suites beside it (they wait for events, so only their
# wall time would suffer) and its RSS figures are clearer without them.
gtest_discover_tests(hostile_test PROPERTIES TIMEOUT ${ZAPBENCH_HANG_TIMEOUT_S} RUN_SERIAL TRUE)
