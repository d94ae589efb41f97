/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfwc - lowering, step 1 (addr_port_classes.c): address and port classes
 */
#ifndef PFWC_ADDR_PORT_CLASSES_H
#define PFWC_ADDR_PORT_CLASSES_H

#include "lower_state.h"

/*
 * Cut the address and port spaces at every bound of l->pol's rules.
 *
 * Reads: l->pol (its rules' addresses and ports).
 * Provides: low->addrs (the first address of each address class, sorted,
 * so lower_addr_class() finds a class), low->ports (likewise for ports),
 * l->port_class (every port's class), l->v4_lo and l->v4_hi (the classes
 * of ::ffff:0:0/96, where the IPv4 family begins and ends).
 */
int lower_addr_port_classes(struct lower *l);

#endif /* PFWC_ADDR_PORT_CLASSES_H */
