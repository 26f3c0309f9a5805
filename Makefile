# zapbench — the two commands of the README, over CMake presets.
#   make bench   install what is missing, build (release), run the benchmark (zapbench run)
#   make test    install what is missing, build, run every test (ctest), then
#                the fuzz targets for a bounded time (FUZZ_SECONDS each)
# Both are idempotent; `make clean` removes build/.
.PHONY: bench test build deps fuzz-build fuzz clean format

FUZZ_SECONDS ?= 30
JOBS ?= $(shell nproc)

deps:
	@scripts/deps.sh

build: deps
	cmake --preset release
	cmake --build --preset release -j $(JOBS)

# The whole benchmark (micro, end-to-end matrix, nginx and floor arms) and its
# report in results/<date-time>/; RUN_ARGS=--full for the full matrix.
RUN_ARGS ?= --quick
bench: build
	build/release/src/cli/zapbench run $(RUN_ARGS)

test: build fuzz-build
	ctest --preset release -j $(JOBS)
	FUZZ_SECONDS=$(FUZZ_SECONDS) ctest --preset fuzz -j $(JOBS)

fuzz-build: deps
	cmake --preset fuzz
	cmake --build --preset fuzz -j $(JOBS)

# Longer fuzzing on demand: make fuzz FUZZ_SECONDS=600 FUZZ_LONG=1
fuzz: fuzz-build
	FUZZ_SECONDS=$(FUZZ_SECONDS) ctest --preset fuzz -j $(JOBS)

format:
	find src tests fuzz -name '*.hpp' -o -name '*.cpp' | xargs clang-format -i

clean:
	rm -rf build
