# pfsel: every entry point.
#
#   make            the tools (build/bin) and the debug kernel
#   make check      install what is missing, build everything, run every
#                   test; the last line is "N passed, M failed"
#   make release-check  the checks too slow for make check, which a
#                   maintainer runs before a release (tests/release-check;
#                   its record: docs/release-check.log, committed)
#   make demo       build, boot the test VM and narrate what pfsel does
#   make bench      build the release kernel and measure pfsel's cost
#                   (ROUNDS=N ITERATIONS=N to override the defaults),
#                   after what a login costs (make bench-login)
#   make bench-login  what a login costs: pam_pfsel's session open in user
#                   space, no VM (tests/bench/login; LOGIN_ROUNDS=N)
#   make fuzz       long fuzzer runs: compiler/'s libFuzzer targets
#                   (FUZZ_SECONDS each), then trinity and pfsel_fuzz in
#                   the debug VM (TRINITY_SECONDS, default 3600;
#                   tests/vm/fuzz/run), then the stress test on the KCSAN
#                   kernel (STRESS_SECONDS, default 1800;
#                   tests/vm/stress/run; docs/FUZZING.md)
#   make kernel     the kernel only (KERNEL=debug|release|kcsan)
#   make vm-run CMD="..."   boot the VM and run CMD (see tests/vm/run)
#   make install    the tools, units and system policy (DESTDIR, PREFIX;
#                   see docs/INSTALL.md)
#   make deb        build/deb/RELEASE/pfsel-tools_VERSION_amd64.deb, built in
#                   a clean chroot of this machine's release (DIST=trixie or
#                   DIST=bookworm for either; docs/INSTALL.md)
#   make deb-kernel build/deb/kernel/linux-image-*.deb for Debian 12 (hours)
#   make deb-kernel-vm  build/deb/kernel-vm/linux-image-*.deb, a small kernel
#                   for Debian 12 under QEMU (minutes; tests/packaging/debian12)
#                   (CONFIG_ONLY=1: either kernel package's configuration
#                   only, seconds; SIGNING_KEY=KEY SIGNING_CERT=CERT: either
#                   signed for Secure Boot with that Machine Owner Key)
#
# Everything generated goes under build/.

KERNEL ?= debug

all: tools kernel

deps:
	@scripts/install-deps

tools: deps
	$(MAKE) -C compiler all
	$(MAKE) -C pfsel-tools all

kernel: deps
	kernel/build $(KERNEL)

vm-tests: deps
	$(MAKE) -C tests/vm all

check: deps
	@tests/check

release-check: deps
	@tests/release-check

demo: deps
	$(MAKE) tools
	kernel/build debug
	$(MAKE) -C tests/vm all
	tests/vm/run --kernel debug --add tests/vm/demo --add policy/examples -- sh ./demo.sh

bench: bench-login
	kernel/build release
	$(MAKE) -C tests/vm all
	ROUNDS=$(ROUNDS) ITERATIONS=$(ITERATIONS) tests/bench/run

bench-login: deps
	$(MAKE) tools
	LOGIN_ROUNDS=$(LOGIN_ROUNDS) tests/bench/login

TRINITY_SECONDS ?= 3600
STRESS_SECONDS ?= 1800

fuzz: deps
	$(MAKE) -C compiler fuzz
	$(MAKE) tools
	kernel/build debug
	$(MAKE) -C tests/vm all
	tests/vm/fuzz/run --seconds $(TRINITY_SECONDS)
	kernel/build kcsan
	tests/vm/stress/run --kernel kcsan --seconds $(STRESS_SECONDS)

vm-run: deps
	tests/vm/run --kernel $(KERNEL) -- $(CMD)

install deb: deps
	$(MAKE) -C packaging $@

# The signing key and certificate named from where make was typed.
deb-kernel deb-kernel-vm: deps
	$(MAKE) -C packaging $@ \
		$(if $(SIGNING_KEY),SIGNING_KEY='$(abspath $(SIGNING_KEY))') \
		$(if $(SIGNING_CERT),SIGNING_CERT='$(abspath $(SIGNING_CERT))')

clean:
	$(MAKE) -C compiler clean
	$(MAKE) -C pfsel-tools clean
	$(MAKE) -C tests/vm clean
	rm -rf build/kernel-debug build/kernel-release build/kernel-kcsan build/logs

.PHONY: all deps tools kernel vm-tests check release-check demo bench bench-login \
	fuzz vm-run clean \
	install deb deb-kernel deb-kernel-vm
