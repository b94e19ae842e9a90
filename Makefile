# The commands of the README, and the steps they are made of.
#   make demo   install dependencies, build, run Starling on embedded defaults in a scratch home
#   make test   install dependencies, build with warnings as errors, run every test
#   make bench  install dependencies, build in release mode, run every benchmark (bench-results/)
#   make test-agents  build, then run Starling with the real Claude Code and Codex CLIs (from npm)
BUILD_DIR ?= build
BUILD_TYPE ?= RelWithDebInfo
JOBS ?= $(shell nproc)
# Benchmarks get their own Release build, without tests or plugin modules, so they never disturb the
# RelWithDebInfo build of `make test`.
BENCH_BUILD_DIR ?= build-release

.PHONY: all deps configure build test test-agents demo install clean bench

all: build

deps:
	@scripts/install-deps

configure: deps
	@cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) -DSTARLING_WARNINGS_AS_ERRORS=ON >/dev/null

build: configure
	@cmake --build $(BUILD_DIR) -j $(JOBS)

test: build
	@ctest --test-dir $(BUILD_DIR) --output-on-failure -j $(JOBS)

# Needs the npm registry (the clients are cached outside the repository); `make test` stays offline.
test-agents: build
	@tests/agents/run $(BUILD_DIR)

demo: build
	@scripts/demo $(BUILD_DIR)

bench: deps
	@cmake -S . -B $(BENCH_BUILD_DIR) -DCMAKE_BUILD_TYPE=Release -DSTARLING_BUILD_TESTS=OFF \
		-DSTARLING_BUILD_PLUGIN_MODULES=OFF -DSTARLING_BUILD_BENCHMARKS=ON >/dev/null
	@cmake --build $(BENCH_BUILD_DIR) -j $(JOBS)
	@scripts/bench $(BENCH_BUILD_DIR)

install: build
	@cmake --install $(BUILD_DIR)

clean:
	@rm -rf $(BUILD_DIR)
