# libcma — GNU Make build.
#   make                 libcma.a, libcma.so, libcma.pc, cmasim
#   make test            unit and scenario tests, fault sweeps sampled (installs what it needs as root)
#   make stress          long randomized runs (STRESS_OPS bounds them), every fault sweep point
#   make bench           benchmarks, one line per figure (and make calibrate SHORT=1, make oracle-short)
#   make calibrate       cmasim's predictions against measured anchors (calib/README.md);
#                        SHORT=1: the fast ones only
#   make install PREFIX=/usr/local
#   make SAN=address|thread|undefined   sanitizer build (in build-$(SAN)/)
#   make CMA_DEBUG=0|1|2 assertion level (default 1; 2 runs the validators often)
#   make fuzz            libFuzzer targets (clang, ASan+UBSan) in build-fuzz/
#   make fuzz-smoke      each target for FUZZ_SECONDS (30), failing on a finding
#   make coverage        the tests under gcc --coverage; line and branch report of src/
#   make oracle-guest    Debian's 6.12 under QEMU runs bench/oracle/experiments (ORACLE_EXP
#                        names some; ORACLE_ARGS='-r N' repeats them non-deterministically)
#   make oracle          cmasim against the guests' committed results, a line per figure
#                        (no QEMU; ORACLE_EXP names some experiments)
#   make oracle-counters the guests' vmstat counters over the allocation against cmasim's
#   make oracle-short    two arm64 guests booted afresh and compared; fails only if one cannot boot
#   make oracle-dat      tests/replay/oracle-*.dat.xz recorded again by the guests (trace-cmd restore)

CC       ?= cc
PREFIX   ?= /usr/local
CMA_DEBUG ?= 1
SAN      ?=

# each sanitizer and each assertion level other than the default builds apart
BUILD    := build$(if $(SAN),-$(SAN))$(if $(filter-out 1,$(CMA_DEBUG)),-debug$(CMA_DEBUG))
VERSION  := 0.1.0

CFLAGS   ?= -O2 -g
CFLAGS   += -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Wshadow -Wno-unused-parameter \
            -fPIC -pthread -Iinclude -Isrc -DCMA_DEBUG=$(CMA_DEBUG)
# each compile writes the headers it read next to its output (x.o: x.d,
# the end of this file), one source per compile so that the list is whole
DEPFLAGS := -MMD -MP
CFLAGS   += $(DEPFLAGS)
LDFLAGS  += -pthread

ifeq ($(SAN),address)
  CFLAGS  += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
  LDFLAGS += -fsanitize=address,undefined
else ifeq ($(SAN),undefined)
  CFLAGS  += -fsanitize=undefined -fno-sanitize-recover=undefined
  LDFLAGS += -fsanitize=undefined
else ifeq ($(SAN),thread)
  CFLAGS  += -fsanitize=thread
  LDFLAGS += -fsanitize=thread
else ifneq ($(SAN),)
  $(error SAN must be address, thread or undefined, not '$(SAN)')
endif

LIB_SRC   := $(wildcard src/lib/*.c src/mm/*.c src/dma/*.c src/init/*.c)
LIB_OBJ   := $(LIB_SRC:%.c=$(BUILD)/%.o)
SIM_SRC   := $(wildcard tools/cmasim/*/*.c)
SIM_OBJ   := $(SIM_SRC:%.c=$(BUILD)/%.o)

# cmasim's speed is one of its figures (make bench). In the plain build
# (GCC, no sanitizer, no coverage) the library and cmasim compile at -O3
# with GCC's intermediate code kept beside the machine code (fat LTO
# objects), and cmasim's link optimizes across the two: 10% fewer
# instructions on the default scenario, the same reports. Every other
# link (the tests, libcma.so) uses the machine code as it is: -fno-lto,
# or GCC's linker plugin would optimize each of them across the library.
CC_IS_GCC := $(shell $(CC) --version 2>/dev/null | grep -q 'Free Software Foundation' && echo y)
ifeq ($(CC_IS_GCC)$(SAN)$(filter --coverage,$(CFLAGS)),y)
  LTO_CFLAGS  := -O3 -flto=auto -ffat-lto-objects
  LTO_LDFLAGS := -O3 -flto=auto
  LDFLAGS     += -fno-lto
endif
$(LIB_OBJ) $(SIM_OBJ): CFLAGS += $(LTO_CFLAGS)
TEST_SRC  := $(wildcard tests/test_*.c)
TEST_BIN  := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)
TEST_LIB  := $(filter-out tests/test_%.c,$(wildcard tests/*.c))
TEST_LIB_OBJ := $(TEST_LIB:%.c=$(BUILD)/%.o)
BENCH_SRC := $(wildcard bench/*.c)

.PHONY: all test stress bench calibrate install clean deps sim-deps fuzz fuzz-smoke coverage
all: $(BUILD)/libcma.a $(BUILD)/libcma.so $(BUILD)/libcma.pc $(BUILD)/cmasim

$(BUILD)/%.o: %.c $(BUILD)/%.d
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c -o $@ $<

$(BUILD)/libcma.a: $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/libcma.so: $(LIB_OBJ) libcma.map
	$(CC) -shared -Wl,-soname,libcma.so.0 -Wl,--version-script=libcma.map $(LDFLAGS) -o $@ $(LIB_OBJ)

# the .pc names PREFIX: written at build time for the PREFIX of the build,
# and again at install time, so 'make install PREFIX=...' after 'make'
# installs one that names where it went. A libdir the dynamic linker does
# not search by itself (any PREFIX but /usr) is also the programs' run
# path, so what pkg-config builds finds libcma.so.0 with no ldconfig or
# LD_LIBRARY_PATH.
comma   := ,
pc_rpath = $(if $(filter /usr /usr/,$(PREFIX)),,-Wl$(comma)-rpath$(comma)$${libdir} )
write_pc = printf 'prefix=%s\nlibdir=$${prefix}/lib\nincludedir=$${prefix}/include\n\nName: libcma\nDescription: Contiguous Memory Allocator and page allocator in user space\nVersion: %s\nLibs: -L$${libdir} %s-lcma -lpthread\nCflags: -I$${includedir}\n' \
	'$(PREFIX)' '$(VERSION)' '$(pc_rpath)' > $(1)

$(BUILD)/libcma.pc: Makefile
	@mkdir -p $(BUILD)
	$(call write_pc,$@)

# cmasim reads platform files with libinih (Debian's libinih-dev), device trees with
# libfdt (libfdt-dev), in sweep its JSON reports with jansson (libjansson-dev), and
# in import xz files with liblzma (liblzma-dev), in replay trace.dat with libtracecmd
# (libtracecmd-dev, libtracefs-dev, libtraceevent-dev: libtracecmd.pc requires libtracefs)
# (expanded when a recipe runs, not when make starts: on a fresh machine
# sim-deps installs the packages first, in the same make)
TRACECMD_CFLAGS = $(shell pkg-config --cflags libtracecmd libtraceevent 2>/dev/null) $(TRACECMD_UNAME)
# libtracecmd exports tracecmd_get_uname (the file's uname option) but
# trace-cmd.h (3.1.6) does not declare it: replay_dat.c declares it when
# this link test finds it, and reads no kernel from the header otherwise
TRACECMD_UNAME = $(shell printf 'struct tracecmd_input;\nconst char *tracecmd_get_uname(struct tracecmd_input *);\nint main(void) { return !tracecmd_get_uname(0); }\n' | \
	$(CC) -x c - -o /dev/null $$(pkg-config --libs libtracecmd 2>/dev/null) 2>/dev/null && echo -DHAVE_TRACECMD_GET_UNAME)
SIM_LIBS  = -linih -ljansson -lfdt -llzma -lm $(shell pkg-config --libs libtracecmd libtraceevent 2>/dev/null)

$(SIM_OBJ): | sim-deps
# cmasim's files name each other's headers by folder ("engine/sim.h")
$(SIM_OBJ): CFLAGS += -Itools/cmasim
$(BUILD)/tools/cmasim/replay/replay_dat.o: CFLAGS += $(TRACECMD_CFLAGS)

sim-deps:
	@scripts/ensure-deps.sh sim

# cmasim --version prints VERSION, the one place the project's version is set
$(BUILD)/tools/cmasim/cli/main.o: CFLAGS += -DCMA_VERSION='"$(VERSION)"'
$(BUILD)/tools/cmasim/cli/main.o: Makefile

# Of libcma cmasim calls only what cma.h declares (scripts/check-layers.sh);
# the helpers of src/lib it shares with the library it links itself.
SIM_LIB_SHARED := src/lib/bitmap.c src/lib/kconfig.c
SIM_OBJ += $(SIM_LIB_SHARED:%.c=$(BUILD)/%.o)

$(BUILD)/cmasim: $(SIM_OBJ) $(BUILD)/libcma.a
	$(CC) $(filter-out -fno-lto,$(LDFLAGS)) $(LTO_LDFLAGS) -o $@ $(SIM_OBJ) $(BUILD)/libcma.a $(SIM_LIBS)

# test_cmasim runs the simulator it tests and installs the library, whose
# exports scripts/check-layers.sh reads
$(BUILD)/tests/test_cmasim: $(BUILD)/cmasim $(BUILD)/libcma.so
# test_layers plants a violation of each rule of scripts/check-layers.sh in a copy of the build
$(BUILD)/tests/test_layers: $(BUILD)/cmasim $(BUILD)/libcma.so
# test_charts runs cmasim compare and sweep and reads their pages
$(BUILD)/tests/test_charts: $(BUILD)/cmasim

# test_report links the reports and what they read, not the rest of cmasim
SIM_REPORT_SRC := tools/cmasim/engine/result.c tools/cmasim/engine/cost_parts.c tools/cmasim/util/escape.c $(wildcard tools/cmasim/report/report_*.c)
SIM_REPORT_OBJ := $(SIM_REPORT_SRC:%.c=$(BUILD)/%.o)
$(BUILD)/tests/test_report: tests/test_report.c $(BUILD)/tests/test_report.d $(SIM_REPORT_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Itools/cmasim -o $@ $< $(SIM_REPORT_OBJ) $(LDFLAGS) -lcmocka -lm

# CMA_TEST_KERNEL=6.12 make test: every machine a test makes without naming a
# kernel profile gets that one (tests/helpers.c wraps cma_mm_create)
TEST_WRAP := -Wl,--wrap=cma_mm_create

# test_sim, test_sim_cost, test_job and test_dt_pool link the simulator, all but its main();
# test_dt_corpus boots the kernel's device trees through its platform code;
# test_import reads the snapshot fixture with its importer, and runs cmasim
SIM_LIB_OBJ := $(filter-out %/main.o,$(SIM_OBJ))
SIM_TESTS   := $(addprefix $(BUILD)/tests/,test_sim test_sim_matrix test_sim_cost test_sim_rand test_sim_events test_sim_throttle test_sim_journal test_sim_task test_latency_breakdown test_sim_storage test_sim_sched test_job test_dt_pool test_dt_corpus test_import test_escape test_hugetlb_cma test_replay)
$(SIM_TESTS): $(BUILD)/tests/%: tests/%.c $(BUILD)/tests/%.d $(TEST_LIB_OBJ) $(SIM_LIB_OBJ) $(BUILD)/libcma.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Itools/cmasim -Itests -o $@ $< $(TEST_LIB_OBJ) $(SIM_LIB_OBJ) $(BUILD)/libcma.a $(LDFLAGS) $(TEST_WRAP) -lcmocka $(SIM_LIBS)
$(BUILD)/tests/test_import: $(BUILD)/cmasim
# test_oracle runs bench/oracle/compare.sh, which runs cmasim
$(BUILD)/tests/test_oracle: $(BUILD)/cmasim
# test_oracle_counters runs bench/oracle/counters.sh, which runs cmasim
$(BUILD)/tests/test_oracle_counters: $(BUILD)/cmasim
# test_oracle_replay runs bench/oracle/replay.sh, which runs cmasim
$(BUILD)/tests/test_oracle_replay: $(BUILD)/cmasim

$(BUILD)/tests/%: tests/%.c $(BUILD)/tests/%.d $(TEST_LIB_OBJ) $(BUILD)/libcma.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Itests -o $@ $< $(TEST_LIB_OBJ) $(BUILD)/libcma.a $(LDFLAGS) $(TEST_WRAP) -lcmocka -lm

deps:
	@scripts/ensure-deps.sh test
	@scripts/ensure-deps.sh html || echo "deps: without chromium, test_report skips the HTML check" >&2

# the kernel's device trees (test_dt_corpus), compiled once into build/ whatever BUILD is
# (again only when the kernel's tarball changes)
DT_CORPUS := build/dt-corpus
.PHONY: dt-corpus
dt-corpus:
	@tests/dt/build-corpus.sh $(DT_CORPUS)

# the tests and the corpus build side by side, one job per CPU unless make -j says
SUBMAKE_JOBS = $(if $(filter -j%,$(MAKEFLAGS)),,-j$(shell nproc 2>/dev/null || echo 1))

test: deps
	@$(MAKE) --no-print-directory $(SUBMAKE_JOBS) dt-corpus $(TEST_BIN)
	@scripts/check-layers.sh $(BUILD)
	@scripts/run-tests.sh $(TEST_BIN)

# CMA_TEST_EXHAUSTIVE: test_fault_sweep tries every fault point, not make test's sample;
# test_sim_matrix runs every built-in and policy under six kernels
STRESS_OPS ?= 1000000
STRESS_BIN := $(BUILD)/tests/test_random $(BUILD)/tests/test_mobility_stress $(BUILD)/tests/test_fault_sweep \
	      $(BUILD)/tests/test_sim_matrix
stress: deps $(STRESS_BIN)
	@CMA_STRESS_OPS=$(STRESS_OPS) CMA_TEST_EXHAUSTIVE=1 scripts/run-tests.sh $(STRESS_BIN)

$(BUILD)/bench/cmabench: $(BENCH_SRC) $(BUILD)/bench/cmabench.d $(BUILD)/libcma.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -O3 -o $@ $(BENCH_SRC) $(BUILD)/libcma.a $(LDFLAGS) -ldl -lm

bench: $(BUILD)/bench/cmabench $(BUILD)/cmasim
	@scripts/ensure-deps.sh bench
	$(BUILD)/bench/cmabench $(BENCH_ARGS)
	@bench/sim-bench.sh $(BUILD)/cmasim $(BENCH_ARGS)
	@# a bench prints the short calibration; anchors outside 2x (exit 1) fail make calibrate, not the bench
	@scripts/calibrate.sh --short $(BUILD)/cmasim || { [ $$? -eq 1 ] && \
		echo "bench: some anchors are outside 2x (above); make calibrate exits 1 on them" >&2; }
	@bench/oracle/short.sh -c $(BUILD)/cmasim

# the real kernel as the oracle (issue 29): one guest boot per experiment,
# deterministic (-icount), results into bench/oracle/results/ for committing
.PHONY: oracle-guest
oracle-guest:
	bench/oracle/oracle.sh $(ORACLE_ARGS) $(or $(ORACLE_EXP),$(basename $(notdir $(wildcard bench/oracle/experiments/*.exp))))
	bench/oracle/figures.sh | tee bench/oracle/results/figures.txt

# cmasim runs each experiment's scenario (bench/oracle/scenarios, from
# scenario.sh) and its figures are set beside the guest's: no guest booted
.PHONY: oracle
oracle: $(BUILD)/cmasim
	bench/oracle/compare.sh -c $(BUILD)/cmasim $(ORACLE_EXP)

# the guests' /proc/vmstat counters over the allocation beside cmasim's
# over the same span (bench/oracle/results/counters.txt): no guest booted
.PHONY: oracle-counters
oracle-counters: $(BUILD)/cmasim
	bench/oracle/counters.sh -c $(BUILD)/cmasim $(ORACLE_EXP)

# the short form, in make bench (CI): two small arm64 guests booted into
# build/oracle/short and compared; disagreement is printed, not failed
.PHONY: oracle-short
oracle-short: $(BUILD)/cmasim
	bench/oracle/short.sh -c $(BUILD)/cmasim

# cmasim replay of each arm64 guest's trace (results, results-spread,
# results-state): success, pfn and pages migrated per trace; no guest booted
.PHONY: oracle-replay
oracle-replay: $(BUILD)/cmasim
	bench/oracle/replay.sh -c $(BUILD)/cmasim

# tests/replay's trace.dat files recorded by the guests' kernels again
# (issue 31): oracle.sh -d, then trace-cmd restore, into build/oracle/dat
.PHONY: oracle-dat
oracle-dat:
	bench/oracle/dat.sh $(ORACLE_EXP)

# calib/anchors.tsv: each anchor's measured value against cmasim's prediction
calibrate: $(BUILD)/cmasim
	@scripts/ensure-deps.sh test
	@scripts/calibrate.sh $(if $(SHORT),--short) $(BUILD)/cmasim

# libFuzzer: the library rebuilt with clang and the fuzzer's coverage hooks,
# one binary per fuzz/fuzz_*.c; seeds in fuzz/corpus/<target>/, findings
# kept as inputs in fuzz/regressions/<target>/.
FUZZ_CC      ?= clang-14
FUZZ_BUILD   ?= build-fuzz
FUZZ_SAN     ?= -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FUZZ_IGNORE  := fuzz/coverage-ignore.txt
FUZZ_CFLAGS  := -O1 -g -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Wshadow -Wno-unused-parameter \
                -pthread -Iinclude -Isrc -DCMA_DEBUG=$(CMA_DEBUG) $(FUZZ_SAN) $(DEPFLAGS) \
                -fsanitize-coverage-ignorelist=$(FUZZ_IGNORE)
FUZZ_SRC     := $(wildcard fuzz/fuzz_*.c)
FUZZ_BIN     := $(FUZZ_SRC:fuzz/%.c=$(FUZZ_BUILD)/%)
FUZZ_LIB_OBJ := $(LIB_SRC:%.c=$(FUZZ_BUILD)/%.o)
FUZZ_SECONDS ?= 30

$(FUZZ_BUILD)/%.o: %.c $(FUZZ_BUILD)/%.d $(FUZZ_IGNORE)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

$(FUZZ_BIN): $(FUZZ_BUILD)/%: fuzz/%.c $(FUZZ_BUILD)/%.d $(FUZZ_LIB_OBJ) $(FUZZ_IGNORE)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_LIB_OBJ) $(FUZZ_LINK) -pthread

# fuzz_platform, fuzz_scenario, fuzz_dt, fuzz_import and fuzz_replay include cmasim's headers and link its code, all but main()
FUZZ_SIM_OBJ := $(filter-out %/main.o,$(SIM_SRC:%.c=$(FUZZ_BUILD)/%.o))
$(FUZZ_SIM_OBJ): FUZZ_CFLAGS += -Itools/cmasim
$(FUZZ_BUILD)/fuzz_platform: $(FUZZ_SIM_OBJ)
$(FUZZ_BUILD)/fuzz_platform: FUZZ_LINK = -Itools/cmasim $(FUZZ_SIM_OBJ) $(SIM_LIBS)
$(FUZZ_BUILD)/fuzz_scenario: $(FUZZ_SIM_OBJ)
$(FUZZ_BUILD)/fuzz_scenario: FUZZ_LINK = -Itools/cmasim $(FUZZ_SIM_OBJ) $(SIM_LIBS)
$(FUZZ_BUILD)/fuzz_dt: $(FUZZ_SIM_OBJ)
$(FUZZ_BUILD)/fuzz_dt: FUZZ_LINK = -Itools/cmasim $(FUZZ_SIM_OBJ) $(SIM_LIBS)
$(FUZZ_BUILD)/fuzz_import: $(FUZZ_SIM_OBJ)
$(FUZZ_BUILD)/fuzz_import: FUZZ_LINK = -Itools/cmasim $(FUZZ_SIM_OBJ) $(SIM_LIBS)
$(FUZZ_BUILD)/fuzz_replay: $(FUZZ_SIM_OBJ)
$(FUZZ_BUILD)/fuzz_replay: FUZZ_LINK = -Itools/cmasim $(FUZZ_SIM_OBJ) $(SIM_LIBS)
$(FUZZ_BUILD)/tools/cmasim/replay/replay_dat.o: FUZZ_CFLAGS += $(TRACECMD_CFLAGS)

fuzz:
	@scripts/ensure-deps.sh fuzz
	@scripts/ensure-deps.sh sim
	@$(MAKE) --no-print-directory $(FUZZ_BIN)

fuzz-smoke: fuzz
	@fuzz/smoke.sh $(FUZZ_SECONDS) $(FUZZ_BIN)

# Coverage: the test programs rebuilt by gcc with --coverage in build-coverage/
# (counts reset each run), run, and summarized for src/ by gcovr. At -O0 gcc
# sees less of snprintf's bounds than at -O2, so format-truncation only warns.
# CMA_COVERAGE: test_fault_sweep's forked runs write their counts too.
# test_dt_corpus boots the device-tree corpus, built first as for make test.
COV_BUILD := build-coverage
COV_BIN   := $(TEST_SRC:tests/%.c=$(COV_BUILD)/tests/%)

coverage: deps
	@scripts/ensure-deps.sh coverage
	@tests/dt/build-corpus.sh $(DT_CORPUS)
	@find $(COV_BUILD) -name '*.gcda' -delete 2>/dev/null || true
	@CFLAGS='-O0 -g --coverage -fprofile-update=atomic -Wno-error=format-truncation -DCMA_COVERAGE' LDFLAGS='--coverage' \
		$(MAKE) --no-print-directory BUILD=$(COV_BUILD) CC=gcc $(COV_BIN)
	@scripts/run-tests.sh $(COV_BIN); status=$$?; \
		scripts/coverage-report.sh $(COV_BUILD) && exit $$status

install: all
	install -d $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include/cma \
		$(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/bin
	install -m 644 $(BUILD)/libcma.a $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(BUILD)/libcma.so $(DESTDIR)$(PREFIX)/lib/libcma.so.0
	ln -sf libcma.so.0 $(DESTDIR)$(PREFIX)/lib/libcma.so
	install -m 644 include/cma/*.h $(DESTDIR)$(PREFIX)/include/cma/
	$(call write_pc,$(DESTDIR)$(PREFIX)/lib/pkgconfig/libcma.pc)
	install -m 755 $(BUILD)/cmasim $(DESTDIR)$(PREFIX)/bin/

# the manual pages, cmasim(1) and libcma(3): a prerequisite of install
.PHONY: install-man
# the README's picture of a sweep's summary.html, from the current output
doc-pictures: $(BUILD)/cmasim
	@scripts/ensure-deps.sh html
	scripts/doc-sweep-summary.sh $(BUILD)/cmasim doc/sweep-summary.png
.PHONY: doc-pictures

install: install-man
install-man:
	install -d $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/man/man3
	install -m 644 doc/cmasim.1 $(DESTDIR)$(PREFIX)/share/man/man1/
	install -m 644 doc/libcma.3 $(DESTDIR)$(PREFIX)/share/man/man3/

clean:
	rm -rf build build-*

# The headers each object and program was built from (DEPFLAGS). Each also
# depends on its .d: where that is missing (never built, or built before
# the lists were written) the rule below makes it out of date, and the
# compile writes it.
DEPFILES := $(LIB_OBJ:.o=.d) $(SIM_OBJ:.o=.d) $(TEST_LIB_OBJ:.o=.d) $(TEST_BIN:=.d) \
	    $(BUILD)/bench/cmabench.d $(FUZZ_LIB_OBJ:.o=.d) $(FUZZ_SIM_OBJ:.o=.d) $(FUZZ_BIN:=.d)
$(DEPFILES):
include $(wildcard $(DEPFILES))
