// SPDX-License-Identifier: MIT
/*
 * umad_sm_held.c - an LD_PRELOAD stand-in for libibumad's umad_register() that
 * fails as it does when another SM (OpenSM, say) already holds the SM class on
 * the port: the kernel refuses the methods in use with EINVAL and libibumad
 * returns -EPERM whatever the errno.  For tests/interop/sm-class-held.sh.
 */
#include <errno.h>
#include <stdint.h>

int umad_register(int portid, int mgmt_class, int mgmt_version, uint8_t rmpp_version,
		  long method_mask[]);

int umad_register(int portid, int mgmt_class, int mgmt_version, uint8_t rmpp_version,
		  long method_mask[])
{
	(void)portid;
	(void)mgmt_class;
	(void)mgmt_version;
	(void)rmpp_version;
	(void)method_mask;
	errno = EINVAL;
	return -EPERM;
}
