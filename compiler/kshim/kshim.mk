# SPDX-License-Identifier: GPL-2.0-only
#
# Included by compiler/Makefile.  The user-space build of the kernel's
# policy reader (security/pfsel/policydb.c, policydb_lookup.c) sees the kernel headers it uses
# through compiler/kshim/include; so does every other object that includes
# security/pfsel/policydb.h.  Those get POLICYDB_CPPFLAGS here, and so do
# the kernel's DNS answer parser and its fuzzer, which names it on its
# pfwc-test-sources line.

KSHIM_USERS := compiler/emit_pfsel compiler/emit_cil compiler/query compiler/dump \
	tests/unit/test_policydb tests/unit/test_lower tests/fuzz/fuzz_policydb \
	security/pfsel/dns tests/fuzz/fuzz_dns

$(foreach d,$(OBJDIR) $(ASAN_OBJDIR) $(FUZZ_OBJDIR),\
	$(addprefix $(d)/,$(addsuffix .o,$(KSHIM_USERS)))): \
	CPPFLAGS += $(POLICYDB_CPPFLAGS)

# The policydb and lowering tests draw random policies from the differential
# test's generator.
$(foreach d,$(ASAN_OBJDIR) $(FUZZ_OBJDIR),\
	$(d)/tests/unit/test_policydb.o $(d)/tests/unit/test_lower.o \
	$(d)/tests/fuzz/fuzz_policydb.o): \
	CPPFLAGS += -I$(ROOT)/tests/differential
