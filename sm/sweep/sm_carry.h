/* SPDX-License-Identifier: MIT */
/*
 * sm_carry.h - carry over links, CAs and descriptions a lost MAD hid from this sweep.
 */
#ifndef IBSMD_SM_CARRY_H
#define IBSMD_SM_CARRY_H

#include "sm/core/sm_fabric.h"

/*
 * Links @last knew whose probe this sweep (@f) lost: no end reports the link
 * down, and both ends are in @f and free (a CA behind it is revived from
 * @last, a switch is not: it would hide a subtree).  They are linked in @f,
 * their probe issues settled, and f->incomplete counts ends whose PortInfo @f
 * lacks.  Returns how many links were carried over.
 */
unsigned sm_carry_links(struct sm_fabric *f, const struct sm_fabric *last);

/*
 * Nodes of @f whose NodeDescription answer was lost (attrs nd_valid unset)
 * take the description @last had for their GUID.  How many did.
 */
unsigned sm_carry_descs(struct sm_fabric *f, const struct sm_fabric *last);

#endif
