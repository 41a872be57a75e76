/* SPDX-License-Identifier: MIT */
/*
 * sm_link.h - per-port link parameters the SM sets, and links that trained low.
 *
 * What a port should hold beyond its addressing: the timers and thresholds of
 * the configuration (HOQLife, VLStallCount, SubnetTimeOut, LocalPhyErrors and
 * OverrunErrors thresholds; SwitchInfo LifeTimeValue) and, when the
 * configuration asks, every width and speed it supports enabled.  And, once
 * programmed, which links run narrower or slower than both ends could.
 */
#ifndef IBSMD_SM_LINK_H
#define IBSMD_SM_LINK_H

#include <stdbool.h>
#include <stdint.h>

#include "sm/core/sm_config.h"
#include "sm/core/sm_fabric.h"

/* Link parameters, as bits: which ones a device did not take (in this order:
 * sm_link.c names them by bit). */
#define SM_LINK_WIDTH_ENABLED 0x01
#define SM_LINK_SPEED_ENABLED 0x02
#define SM_LINK_SPEED_EXT_ENABLED 0x04
#define SM_LINK_HOQ_LIFE 0x08
#define SM_LINK_VL_STALL 0x10
#define SM_LINK_SUBNET_TIMEOUT 0x20
#define SM_LINK_ERROR_THRESHOLDS 0x40

/*
 * Put into @want (a PortInfo Set payload built from port @p of node @n as
 * read, f->attrs) the link parameters @cfg asks for; true when any differs
 * from what the port holds.  Parameters the port did not take when last asked
 * (in @f, or in @prev, the last sweep's fabric, for a port not come up since)
 * are not asked for again.  Per IBA 14.2.5.6: HOQLife and VLStallCount on
 * switch ports 1..N (HOQLife hoq_life_leaf toward a CA or router), SubnetTimeOut
 * on CA and router ports and switch port 0, the error thresholds on every
 * port but a switch's port 0; LinkWidthEnabled 255, LinkSpeedEnabled 15 and
 * LinkSpeedExtEnabled 31 ("all supported") where that field enables less than
 * the port supports and cfg->enable_all_supported is set.
 */
bool sm_link_port_wanted(const struct sm_config *cfg, struct sm_fabric *f,
			 const struct sm_fabric *prev, uint32_t n, unsigned p,
			 struct mad_port_info *want);

/*
 * After a PortInfo Set to port @p of @n: note (and log, once) the link
 * parameters of @asked that @got, the answer, shows the device did not take
 * (some devices, and ibsim, keep fixed values).  0 or -ENOMEM.
 */
int sm_link_port_taken(struct sm_fabric *f, uint32_t n, unsigned p,
		       const struct mad_port_info *asked, const struct mad_port_info *got);

/* The same for a switch's SwitchInfo: LifeTimeValue. */
bool sm_link_switch_wanted(const struct sm_config *cfg, const struct mad_switch_info *cur,
			   struct mad_switch_info *want);

/*
 * Mark in the topology (topo_port.degraded: TOPO_DEGRADED_WIDTH, _SPEED) every
 * linked, physically up port whose link runs below the best width or speed
 * both ends support (by their PortInfo as last read); log each link (info)
 * and their count (notice).
 * Returns the number of degraded links.
 */
unsigned sm_link_mark_degraded(struct sm_fabric *f);

#endif
