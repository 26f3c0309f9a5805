# zapbench — the two commands of the README, over CMake presets.
#   make bench   install what is missing, build (release), run the benchmark (zapbench run)
#   make test    install what is missing, build, run every test (ctest) in the
#                release build, under ASan+UBSan and (threaded ones) under TSan,
#                then the fuzz targets for a bounded time (FUZZ_SECONDS each);
#                scripts/test.sh, which prints the time of each phase at the end
# Both are idempotent; `make clean` removes build/.
.PHONY: bench test test-stress build deps sanitize-build fuzz clean format

FUZZ_SECONDS ?= 10
CLANG_FORMAT ?= $(shell command -v clang-format || command -v clang-format-14)
JOBS ?= $(shell nproc)

deps:
	@scripts/deps.sh

build: deps
	cmake --preset release
	cmake --build --preset release -j $(JOBS)

# The whole benchmark (micro, end-to-end matrix, nginx and floor arms) and its
# report in results/<date-time>/; RUN_ARGS=--full for the full matrix.
RUN_ARGS ?= --quick
# Builds only what a run starts (the bench_programs target), not the tests.
bench: deps
	cmake --preset release
	cmake --build --preset release -j $(JOBS) --target bench_programs
	build/release/src/cli/zapbench run $(RUN_ARGS)

# The suite three times: release; ASan+UBSan (all but the soak; clang, the same build
# as the fuzz targets); TSan (the multi-threaded server and loader tests). Then every
# fuzz target, bounded.
test:
	JOBS=$(JOBS) FUZZ_SECONDS=$(FUZZ_SECONDS) scripts/test.sh

# The test command 3 times with every CPU kept busy, then once on one CPU:
# what a change to a test must survive (no test may depend on the machine's speed).
test-stress:
	scripts/test-stress.sh

# The asan build holds the fuzz targets too (ZAPBENCH_FUZZ in its preset).
sanitize-build: deps
	cmake --preset asan
	cmake --build --preset asan -j $(JOBS)
	cmake --preset tsan
	cmake --build --preset tsan -j $(JOBS)

# Longer fuzzing on demand: make fuzz FUZZ_SECONDS=600 FUZZ_LONG=1
fuzz: deps
	cmake --preset asan
	cmake --build --preset asan -j $(JOBS)
	FUZZ_SECONDS=$(FUZZ_SECONDS) ctest --preset fuzz -j $(JOBS)

format:
	find src tests fuzz -name '*.hpp' -o -name '*.cpp' | xargs $(CLANG_FORMAT) -i

clean:
	rm -rf build
