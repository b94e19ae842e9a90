# The commands of the README, and the steps they are made of.
#   make demo   install dependencies, build only the binaries the demo runs (one line per step), replay
#               recorded agent sessions through them into build/demo-home/ (kept, wiped at each run)
#   make test   install dependencies, build with warnings as errors, run every test
#   make bench  install dependencies, build in release mode, run every benchmark (bench-results/)
#   make test-agents  build, then run Starling with the real Claude Code, Codex, Gemini CLI, Copilot CLI
#                     and OpenCode clients (from npm), offline against a mock model
#   make test-ui  build, then drive `starling ui` in Debian's headless chromium (puppeteer-core from npm)
#   make test-asan    build with AddressSanitizer and UndefinedBehaviorSanitizer, run every test
#   make fuzz   build the libFuzzer targets of fuzz/ with Clang, run each FUZZ_SECONDS from its seeds
#   make install   build in release mode, install stripped binaries into PREFIX (make uninstall undoes it)
#   make deb    build in release mode, make the Debian packages starling_*.deb and starling-dev_*.deb
#   make test-deb  make deb, then install the packages into a scratch root with dpkg and run them
BUILD_DIR ?= build
BUILD_TYPE ?= RelWithDebInfo
JOBS ?= $(shell nproc)
# Benchmarks, `make install` and `make deb` share a Release build, without tests or plugin modules,
# so they never disturb the RelWithDebInfo build of `make test`. `make bench` adds the benchmark tools
# to it; install and deb leave them out (switching the option reconfigures, it recompiles nothing).
RELEASE_BUILD_DIR ?= build-release
BENCH_BUILD_DIR ?= $(RELEASE_BUILD_DIR)
RELEASE_OPTIONS = -DCMAKE_BUILD_TYPE=Release -DSTARLING_BUILD_TESTS=OFF -DSTARLING_BUILD_PLUGIN_MODULES=OFF
# What the demo runs: the CLI and the hook binaries of apps/hooks/CMakeLists.txt. Building these
# alone, not the test suite or the benchmarks, is what lets the demo start within minutes.
DEMO_TARGETS = starling starling-claude starling-cursor starling-codex starling-codeflicker starling-hook

.PHONY: all deps configure build test test-agents test-ui test-asan fuzz demo install clean bench release deb test-deb

all: build

deps:
	@scripts/install-deps

CONFIGURE = cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) -DSTARLING_WARNINGS_AS_ERRORS=ON

configure: deps
	@$(CONFIGURE) >/dev/null

build: configure
	@cmake --build $(BUILD_DIR) -j $(JOBS)

test: build
	@ctest --test-dir $(BUILD_DIR) --output-on-failure -j $(JOBS)

# Needs the npm registry (the clients are cached outside the repository); `make test` stays offline.
test-agents: build
	@tests/agents/run $(BUILD_DIR)

# Needs the npm registry for puppeteer-core (cached outside the repository; it downloads no browser)
# and Debian's chromium; screenshots of every page land in $(BUILD_DIR)/ui-screenshots/.
test-ui: build
	@scripts/install-deps --ui
	@tests/ui/run $(BUILD_DIR)

# The whole suite under ASan + UBSan, in its own build so that the sanitizers never reach `make test`
# or an installed binary. GCC, like `make test`: the code under test is compiled as it ships. Any
# undefined behaviour aborts (no recovery), so a finding fails its test. The executables link the
# shared C++ runtime here: the sanitizers must intercept its allocation and exception functions.
# Warnings are `make test`'s gate; GCC warns spuriously on instrumented code. -O1 with line tables
# only: the level ASan is made for, and half the compile time of -O2 -g on the whole suite.
ASAN_BUILD_DIR ?= build-asan
SANITIZE_FLAGS = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
test-asan: deps
	@cmake -S . -B $(ASAN_BUILD_DIR) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSTARLING_WARNINGS_AS_ERRORS=OFF \
		"-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" \
		-DSTARLING_STATIC_CXX_RUNTIME=OFF -DSTARLING_BUILD_BENCHMARKS=OFF \
		"-DCMAKE_C_FLAGS=$(SANITIZE_FLAGS)" "-DCMAKE_CXX_FLAGS=$(SANITIZE_FLAGS)" \
		"-DCMAKE_EXE_LINKER_FLAGS=$(SANITIZE_FLAGS)" "-DCMAKE_SHARED_LINKER_FLAGS=$(SANITIZE_FLAGS)" \
		"-DCMAKE_MODULE_LINKER_FLAGS=$(SANITIZE_FLAGS)" >/dev/null
	@cmake --build $(ASAN_BUILD_DIR) -j $(JOBS)
	@scripts/test-asan $(ASAN_BUILD_DIR) $(JOBS)

# make fuzz [FUZZ_SECONDS=N] [FUZZ_OPTIMIZE=-O0]   each target of fuzz/ for N seconds (default 30), from fuzz/corpus/;
# fails on the first crash, sanitizer finding, leak, timeout or runaway allocation (scripts/fuzz).
FUZZ_BUILD_DIR ?= build-fuzz
FUZZ_SECONDS ?= 30
# -O1 is what libFuzzer is made for; FUZZ_OPTIMIZE=-O0 builds in about half the time, for a quick run.
FUZZ_OPTIMIZE ?= -O1

fuzz:
	@scripts/install-deps --fuzz
	@cmake -S . -B $(FUZZ_BUILD_DIR) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang \
		-DCMAKE_CXX_COMPILER=clang++ -DSTARLING_BUILD_FUZZERS=ON -DSTARLING_BUILD_TESTS=OFF \
		-DSTARLING_BUILD_PLUGIN_MODULES=OFF -DSTARLING_BUILD_BENCHMARKS=OFF -DSTARLING_WARNINGS_AS_ERRORS=OFF \
		-DSTARLING_STATIC_CXX_RUNTIME=OFF "-DCMAKE_C_FLAGS_RELWITHDEBINFO=$(FUZZ_OPTIMIZE) -gline-tables-only -DNDEBUG" \
		"-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=$(FUZZ_OPTIMIZE) -gline-tables-only -DNDEBUG" >/dev/null
	@cmake --build $(FUZZ_BUILD_DIR) -j $(JOBS) --target starling_fuzzers
	@scripts/fuzz $(FUZZ_BUILD_DIR) $(FUZZ_SECONDS)

# The build steps print one line each; a step that fails prints its whole output (scripts/run-quietly).
# The first build of DEMO_TARGETS compiles for about 22 CPU-minutes (measured from a clean build
# directory; the README has the figures), which JOBS idle cores share.
DEMO_BUILD_CPU_MINUTES = 22
demo:
	@if [ -x $(BUILD_DIR)/bin/starling ]; then \
		echo "make demo: $(BUILD_DIR)/ is built, only what changed since is rebuilt; then the replay (about 10 s)"; \
	else \
		echo "make demo: the first build compiles for about $(DEMO_BUILD_CPU_MINUTES) CPU-minutes:" \
			"about $$(( $(DEMO_BUILD_CPU_MINUTES) / $(JOBS) + 1 )) minutes with $(JOBS) idle cores, longer on a busy machine;" \
			"then the replay (about 10 s)"; \
	fi
	@scripts/run-quietly $(BUILD_DIR)/make-demo/deps.log "[1/3] Checking the build dependencies" scripts/install-deps
	@scripts/run-quietly $(BUILD_DIR)/make-demo/configure.log "[2/3] Configuring $(BUILD_DIR)/" $(CONFIGURE)
	@scripts/run-quietly $(BUILD_DIR)/make-demo/build.log "[3/3] Building starling and the hook binaries" \
		cmake --build $(BUILD_DIR) -j $(JOBS) --target $(DEMO_TARGETS)
	@scripts/demo $(BUILD_DIR)

bench: deps
	@cmake -S . -B $(BENCH_BUILD_DIR) $(RELEASE_OPTIONS) -DSTARLING_BUILD_BENCHMARKS=ON >/dev/null
	@cmake --build $(BENCH_BUILD_DIR) -j $(JOBS)
	@scripts/bench $(BENCH_BUILD_DIR)

# What is installed and packaged: Release binaries, stripped when installed (cmake --install --strip,
# CPack), no benchmark tools. Everything `all` builds, so that any install() rule finds its files.
BUILD_RELEASE = cmake -S . -B $(RELEASE_BUILD_DIR) $(RELEASE_OPTIONS) -DSTARLING_BUILD_BENCHMARKS=OFF >/dev/null \
	&& cmake --build $(RELEASE_BUILD_DIR) -j $(JOBS)
release: deps
	@$(BUILD_RELEASE)

# make deb [DEB_DIR=DIR]   the packages starling_<version>_<arch>.deb (the binaries, the profiles, the
# documentation) and starling-dev_<version>_all.deb (the plugin SDK), into DEB_DIR (default: here),
# replacing the ones an earlier make deb left there. `sudo apt install ./starling_*.deb`.
DEB_DIR ?= .
deb:
	@scripts/install-deps --deb
	@$(BUILD_RELEASE)
	@mkdir -p $(DEB_DIR) && rm -f $(DEB_DIR)/starling_*.deb $(DEB_DIR)/starling-dev_*.deb
	@cd $(RELEASE_BUILD_DIR) && cpack -G DEB -D CPACK_OUTPUT_FILE_PREFIX=$(abspath $(DEB_DIR)) > cpack.log \
		|| { cat cpack.log; echo "make deb: cpack failed; its output is above and in $(RELEASE_BUILD_DIR)/cpack.log" >&2; exit 1; }
	@ls -l $(DEB_DIR)/starling_*.deb $(DEB_DIR)/starling-dev_*.deb

# The packages of make deb, checked, installed into a scratch root with dpkg and run there (scripts/test-deb; CI).
test-deb: deb
	@scripts/test-deb $(RELEASE_BUILD_DIR) $(DEB_DIR)

# make install [PREFIX=DIR]   build in release mode, then install, stripped, into PREFIX (default /usr/local)
# make uninstall              remove exactly the files the last make install wrote
# cmake --install lists the files it wrote in the build directory's install_manifest.txt, and
# rewrites it at every install: `make install` keeps its own copy for `make uninstall`. An install
# made before make install built in release mode: make uninstall INSTALL_MANIFEST=build/make-install-manifest.txt
PREFIX ?= /usr/local
INSTALL_MANIFEST ?= $(RELEASE_BUILD_DIR)/make-install-manifest.txt

install: release
	@cmake --install $(RELEASE_BUILD_DIR) --prefix $(PREFIX) --strip
	@cp $(RELEASE_BUILD_DIR)/install_manifest.txt $(INSTALL_MANIFEST)

.PHONY: uninstall
uninstall:
	@scripts/uninstall $(INSTALL_MANIFEST)

clean:
	@rm -rf $(BUILD_DIR)
