# SPDX-License-Identifier: GPL-2.0-only
#
# How user space is built (docs/CONVENTIONS.md, "Builds"), once: included
# by compiler/Makefile, pfsel-tools/Makefile and tests/differential/Makefile,
# which set ROOT (the repository) first.
#
#   WARNINGS            the warnings every user-space object is built with
#   SAN_FLAGS           what a test build adds (ASan, UBSan, no recovery)
#   POLICYDB_SRCS       the kernel's policy reader (security/pfsel/), which
#                       pfwc, libuserpolicy and the tests build for user
#                       space...
#   POLICYDB_CPPFLAGS   ...through compiler/kshim's kernel headers
#   Q, quiet            one line a step, $(call quiet,LABEL,FILE); V=1 shows
#                       the whole commands

WARNINGS := -Wall -Wextra -Werror
SAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=undefined

POLICYDB_SRCS := $(wildcard $(ROOT)/security/pfsel/policydb.c \
	$(ROOT)/security/pfsel/policydb_lookup.c)
POLICYDB_CPPFLAGS := -I$(ROOT)/compiler/kshim/include \
	-I$(ROOT)/security/pfsel -I$(ROOT)/compiler/kshim

ifeq ($(V),1)
Q :=
quiet = @true
else
Q := @
quiet = @printf '  %-7s %s\n' $(1) $(patsubst $(ROOT)/%,%,$(2))
endif
