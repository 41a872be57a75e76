/* SPDX-License-Identifier: MIT */
/*
 * mad_smp.h - the subnet management packet (SMP) as a host structure.
 *
 * IBA 1.x section 14.2.1 (LID-routed SMP) and 14.2.1.2 (directed-route SMP):
 * a 256-byte MAD with a 24-byte common header, M_Key, DrSLID/DrDLID, a 64-byte
 * attribute payload at offset 64 and, for directed route, the initial and return
 * paths at offsets 128 and 192.  Everything above this file works on
 * struct mad_smp; only mad_smp_encode()/mad_smp_decode() see wire bytes, and they
 * use libibmad's field tables for the layout.
 */
#ifndef IBSMD_MAD_SMP_H
#define IBSMD_MAD_SMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mad/model/topo.h"

#define MAD_BLOCK_SIZE 256
#define SMP_DATA_OFFSET 64
#define SMP_DATA_SIZE 64
#define SMP_PATH_SIZE 64
/* Path byte 0 is unused: a directed route has at most 63 hops (IBA 14.2.2). */
#define SMP_MAX_HOPS 63
#define MAD_LID_PERMISSIVE 0xffff

enum mad_class {
	MAD_CLASS_SMI = 0x01,	/* LID routed */
	MAD_CLASS_SMI_DR = 0x81,	/* directed route */
};

enum mad_method {
	MAD_METHOD_GET = 0x01,
	MAD_METHOD_SET = 0x02,
	MAD_METHOD_GET_RESP = 0x81,
	MAD_METHOD_TRAP = 0x05,
	MAD_METHOD_TRAP_REPRESS = 0x07,
};

enum mad_attr_id {
	MAD_ATTR_NOTICE = 0x0002,
	MAD_ATTR_NODE_DESC = 0x0010,
	MAD_ATTR_NODE_INFO = 0x0011,
	MAD_ATTR_SWITCH_INFO = 0x0012,
	MAD_ATTR_GUID_INFO = 0x0014,
	MAD_ATTR_PORT_INFO = 0x0015,
	MAD_ATTR_PKEY_TABLE = 0x0016,
	MAD_ATTR_SL2VL_TABLE = 0x0017,
	MAD_ATTR_VL_ARB_TABLE = 0x0018,
	MAD_ATTR_LFT = 0x0019,
	MAD_ATTR_MFT = 0x001B,
	MAD_ATTR_SM_INFO = 0x0020,
};

/* MAD status (IBA 13.4.7, table 132): bit 0 busy, bit 1 redirect, bits 2-4 code. */
#define MAD_STATUS_BUSY 0x0001
#define MAD_STATUS_REDIRECT 0x0002
#define MAD_STATUS_CODE(c) ((uint16_t)((c) << 2))
#define MAD_STATUS_BAD_VERSION MAD_STATUS_CODE(1)
#define MAD_STATUS_METHOD_UNSUPPORTED MAD_STATUS_CODE(2)
#define MAD_STATUS_METHOD_ATTR_UNSUPPORTED MAD_STATUS_CODE(3)
#define MAD_STATUS_INVALID_FIELD MAD_STATUS_CODE(7)

/* A directed route is the model's struct topo_path (mad/model/topo.h). */
_Static_assert(SMP_MAX_HOPS == TOPO_PATH_MAX_HOPS, "a path fits an SMP's path field");

struct mad_smp {
	uint8_t base_version;	/* 1 */
	uint8_t mgmt_class;	/* enum mad_class */
	uint8_t class_version;	/* 1 */
	uint8_t method;		/* enum mad_method */
	uint16_t status;	/* 15 bits for directed route */
	bool direction;		/* DR only: D bit, true on the way back */
	uint8_t hop_ptr;	/* DR only */
	uint8_t hop_cnt;	/* DR only */
	uint64_t tid;
	uint16_t attr_id;
	uint32_t attr_mod;
	uint64_t mkey;
	uint16_t dr_slid;	/* DR only */
	uint16_t dr_dlid;	/* DR only */
	uint8_t data[SMP_DATA_SIZE];
	uint8_t initial_path[SMP_PATH_SIZE];	/* DR only */
	uint8_t return_path[SMP_PATH_SIZE];	/* DR only */
};

/* Fill @smp as a fresh directed-route request along @path (permissive DrSLID and
 * DrDLID, hop pointer 0).  The payload is zeroed; the caller encodes into data. */
void mad_smp_init_dr(struct mad_smp *smp, uint8_t method, uint16_t attr_id,
		     uint32_t attr_mod, const struct topo_path *path);

/* Fill @smp as a fresh LID-routed request.  The payload is zeroed. */
void mad_smp_init_lid(struct mad_smp *smp, uint8_t method, uint16_t attr_id,
		      uint32_t attr_mod);

/* Turn a request into its GetResp in place (method, D bit for DR). */
void mad_smp_make_response(struct mad_smp *smp, uint16_t status);

/* Turn a Trap into its TrapRepress in place, built as a response is (IBA
 * 13.4.6.4, 14.2.5.1): same TID, attribute and payload, status 0, D bit for
 * directed route (it goes back along the Trap's return path). */
void mad_smp_make_trap_repress(struct mad_smp *smp);

/* Write @smp as MAD_BLOCK_SIZE wire bytes into @buf. */
void mad_smp_encode(const struct mad_smp *smp, uint8_t buf[MAD_BLOCK_SIZE]);

/*
 * Parse and validate @len bytes at @buf into @smp.
 * Returns 0, or -EMSGSIZE (short), -EPROTONOSUPPORT (base or class version not 1,
 * or not an SMI class), -EBADMSG (unknown method, hop count over 63 or hop pointer
 * beyond hop count + 1).  Never trusts the peer: @smp is only valid on 0.
 */
int mad_smp_decode(const uint8_t *buf, size_t len, struct mad_smp *smp);

/*
 * Check that @resp answers @req: GetResp, same TID, class and attribute, and a
 * zero status.  Returns 0, -EBADMSG for a mismatch, or -EREMOTEIO when the
 * responder reported a non-zero status.
 */
int mad_smp_check_response(const struct mad_smp *req, const struct mad_smp *resp);

/* True for methods that expect a GetResp (Get and Set). */
bool mad_method_is_request(uint8_t method);

/* A short name for logs ("NodeInfo"), or "attr 0x1234". @buf for the fallback. */
const char *mad_attr_name(uint16_t attr_id, char *buf, size_t len);

/* Append the output port @port to @path.  Returns 0, or -E2BIG at 63 hops. */
int mad_drpath_push(struct topo_path *path, uint8_t port);

/* Format @path as "0,1,3,7" (ibnetdiscover's DR notation) into @buf. */
const char *mad_drpath_str(const struct topo_path *path, char *buf, size_t len);

#endif
