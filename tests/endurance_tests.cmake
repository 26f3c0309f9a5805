# tests/endurance_tests.cmake — scale, soak and shutdown under load (included from tests/CMakeLists.txt, in
# its scope): `zapbench serve` and `zapbench load` as real child processes of tests/endurance_test.cpp, the
# server's RSS and descriptors read from /proc. Each suite runs alone (RUN_SERIAL): 10,000 connections and
# full load would disturb, and be disturbed by, any other test. The soak (about 65 s) has the LABEL "soak",
# so a sanitizer run can leave it out (ctest -LE soak). load_engine_closed runs the load engine in process
# against a server that closes with requests in flight (the `closed` error kind the shutdown test relies on).
find_package(nlohmann_json 3 REQUIRED)
add_executable(endurance_test endurance_test.cpp)
target_link_libraries(endurance_test PRIVATE load nlohmann_json::nlohmann_json GTest::gtest_main)
target_compile_definitions(endurance_test PRIVATE ZAPBENCH_BIN="$<TARGET_FILE:zapbench>")
add_dependencies(endurance_test zapbench)
gtest_discover_tests(endurance_test TEST_FILTER "scale.*:shutdown.*:load_engine_closed.*"
                     PROPERTIES TIMEOUT ${ZAPBENCH_HANG_TIMEOUT_S} RUN_SERIAL TRUE LABELS endurance)
gtest_discover_tests(endurance_test TEST_FILTER "soak.*"
                     PROPERTIES TIMEOUT 360 RUN_SERIAL TRUE LABELS soak)
