// SPDX-License-Identifier: MIT
/*
 * mad_smp.c - SMP header encode/decode and request/response helpers.
 *
 * Wire layout comes from libibmad's IB_MAD_* and IB_DRSMP_* field tables.  The
 * decoder checks everything a responder controls before anyone looks at the
 * payload: size, versions, class, method, hop count and hop pointer.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <infiniband/mad.h>

#include "mad/mad_smp.h"

_Static_assert(MAD_BLOCK_SIZE == IB_MAD_SIZE, "MAD size");
_Static_assert(SMP_DATA_OFFSET == IB_SMP_DATA_OFFS, "SMP data offset");
_Static_assert(SMP_DATA_SIZE == IB_SMP_DATA_SIZE, "SMP data size");

#define SMP_INITIAL_PATH_OFFSET 128
#define SMP_RETURN_PATH_OFFSET 192

static void smp_init(struct mad_smp *smp, uint8_t mgmt_class, uint8_t method,
		     uint16_t attr_id, uint32_t attr_mod)
{
	memset(smp, 0, sizeof(*smp));
	smp->base_version = 1;
	smp->class_version = 1;
	smp->mgmt_class = mgmt_class;
	smp->method = method;
	smp->attr_id = attr_id;
	smp->attr_mod = attr_mod;
}

void mad_smp_init_dr(struct mad_smp *smp, uint8_t method, uint16_t attr_id,
		     uint32_t attr_mod, const struct topo_path *path)
{
	smp_init(smp, MAD_CLASS_SMI_DR, method, attr_id, attr_mod);
	smp->dr_slid = MAD_LID_PERMISSIVE;
	smp->dr_dlid = MAD_LID_PERMISSIVE;
	smp->hop_cnt = path->hops;
	memcpy(smp->initial_path, path->port, sizeof(smp->initial_path));
}

void mad_smp_init_lid(struct mad_smp *smp, uint8_t method, uint16_t attr_id,
		      uint32_t attr_mod)
{
	smp_init(smp, MAD_CLASS_SMI, method, attr_id, attr_mod);
}

void mad_smp_make_response(struct mad_smp *smp, uint16_t status)
{
	smp->method = MAD_METHOD_GET_RESP;
	smp->status = status;
	if (smp->mgmt_class == MAD_CLASS_SMI_DR)
		smp->direction = true;
}

void mad_smp_make_trap_repress(struct mad_smp *smp)
{
	mad_smp_make_response(smp, 0);
	smp->method = MAD_METHOD_TRAP_REPRESS;
}

void mad_smp_encode(const struct mad_smp *smp, uint8_t buf[MAD_BLOCK_SIZE])
{
	memset(buf, 0, MAD_BLOCK_SIZE);
	mad_set_field(buf, 0, IB_MAD_BASEVER_F, smp->base_version);
	mad_set_field(buf, 0, IB_MAD_MGMTCLASS_F, smp->mgmt_class);
	mad_set_field(buf, 0, IB_MAD_CLASSVER_F, smp->class_version);
	/* IB_MAD_METHOD_F is 7 bits; the R bit is the top one. */
	mad_set_field(buf, 0, IB_MAD_METHOD_F, smp->method & 0x7f);
	mad_set_field(buf, 0, IB_MAD_RESPONSE_F, smp->method >> 7);
	if (smp->mgmt_class == MAD_CLASS_SMI_DR) {
		mad_set_field(buf, 0, IB_DRSMP_DIRECTION_F, smp->direction);
		mad_set_field(buf, 0, IB_DRSMP_STATUS_F, smp->status & 0x7fff);
		mad_set_field(buf, 0, IB_DRSMP_HOPPTR_F, smp->hop_ptr);
		mad_set_field(buf, 0, IB_DRSMP_HOPCNT_F, smp->hop_cnt);
		mad_set_field(buf, 0, IB_DRSMP_DRSLID_F, smp->dr_slid);
		mad_set_field(buf, 0, IB_DRSMP_DRDLID_F, smp->dr_dlid);
		memcpy(buf + SMP_INITIAL_PATH_OFFSET, smp->initial_path, SMP_PATH_SIZE);
		memcpy(buf + SMP_RETURN_PATH_OFFSET, smp->return_path, SMP_PATH_SIZE);
	} else {
		mad_set_field(buf, 0, IB_MAD_STATUS_F, smp->status);
	}
	mad_set_field64(buf, 0, IB_MAD_TRID_F, smp->tid);
	mad_set_field(buf, 0, IB_MAD_ATTRID_F, smp->attr_id);
	mad_set_field(buf, 0, IB_MAD_ATTRMOD_F, smp->attr_mod);
	mad_set_field64(buf, 0, IB_MAD_MKEY_F, smp->mkey);
	memcpy(buf + SMP_DATA_OFFSET, smp->data, SMP_DATA_SIZE);
}

static bool method_known(uint8_t method)
{
	switch (method) {
	case MAD_METHOD_GET:
	case MAD_METHOD_SET:
	case MAD_METHOD_GET_RESP:
	case MAD_METHOD_TRAP:
	case MAD_METHOD_TRAP_REPRESS:
		return true;
	default:
		return false;
	}
}

int mad_smp_decode(const uint8_t *buf, size_t len, struct mad_smp *smp)
{
	void *b = (void *)buf;	/* libibmad's getters take a non-const pointer */

	if (len < MAD_BLOCK_SIZE)
		return -EMSGSIZE;
	memset(smp, 0, sizeof(*smp));
	smp->base_version = mad_get_field(b, 0, IB_MAD_BASEVER_F);
	smp->mgmt_class = mad_get_field(b, 0, IB_MAD_MGMTCLASS_F);
	smp->class_version = mad_get_field(b, 0, IB_MAD_CLASSVER_F);
	if (smp->base_version != 1 || smp->class_version != 1)
		return -EPROTONOSUPPORT;
	if (smp->mgmt_class != MAD_CLASS_SMI && smp->mgmt_class != MAD_CLASS_SMI_DR)
		return -EPROTONOSUPPORT;
	smp->method = mad_get_field(b, 0, IB_MAD_METHOD_F) |
		      mad_get_field(b, 0, IB_MAD_RESPONSE_F) << 7;
	if (!method_known(smp->method))
		return -EBADMSG;
	if (smp->mgmt_class == MAD_CLASS_SMI_DR) {
		smp->direction = mad_get_field(b, 0, IB_DRSMP_DIRECTION_F);
		smp->status = mad_get_field(b, 0, IB_DRSMP_STATUS_F);
		smp->hop_ptr = mad_get_field(b, 0, IB_DRSMP_HOPPTR_F);
		smp->hop_cnt = mad_get_field(b, 0, IB_DRSMP_HOPCNT_F);
		smp->dr_slid = mad_get_field(b, 0, IB_DRSMP_DRSLID_F);
		smp->dr_dlid = mad_get_field(b, 0, IB_DRSMP_DRDLID_F);
		if (smp->hop_cnt > SMP_MAX_HOPS || smp->hop_ptr > smp->hop_cnt + 1)
			return -EBADMSG;
		memcpy(smp->initial_path, buf + SMP_INITIAL_PATH_OFFSET, SMP_PATH_SIZE);
		memcpy(smp->return_path, buf + SMP_RETURN_PATH_OFFSET, SMP_PATH_SIZE);
	} else {
		smp->status = mad_get_field(b, 0, IB_MAD_STATUS_F);
	}
	smp->tid = mad_get_field64(b, 0, IB_MAD_TRID_F);
	smp->attr_id = mad_get_field(b, 0, IB_MAD_ATTRID_F);
	smp->attr_mod = mad_get_field(b, 0, IB_MAD_ATTRMOD_F);
	smp->mkey = mad_get_field64(b, 0, IB_MAD_MKEY_F);
	memcpy(smp->data, buf + SMP_DATA_OFFSET, SMP_DATA_SIZE);
	return 0;
}

int mad_smp_check_response(const struct mad_smp *req, const struct mad_smp *resp)
{
	if (resp->method != MAD_METHOD_GET_RESP || resp->tid != req->tid ||
	    resp->mgmt_class != req->mgmt_class || resp->attr_id != req->attr_id)
		return -EBADMSG;
	if (resp->status)
		return -EREMOTEIO;
	return 0;
}

bool mad_method_is_request(uint8_t method)
{
	return method == MAD_METHOD_GET || method == MAD_METHOD_SET;
}

const char *mad_attr_name(uint16_t attr_id, char *buf, size_t len)
{
	switch (attr_id) {
	case MAD_ATTR_NOTICE: return "Notice";
	case MAD_ATTR_NODE_DESC: return "NodeDescription";
	case MAD_ATTR_NODE_INFO: return "NodeInfo";
	case MAD_ATTR_SWITCH_INFO: return "SwitchInfo";
	case MAD_ATTR_PORT_INFO: return "PortInfo";
	case MAD_ATTR_PKEY_TABLE: return "P_KeyTable";
	case MAD_ATTR_SL2VL_TABLE: return "SLtoVLMappingTable";
	case MAD_ATTR_VL_ARB_TABLE: return "VLArbitrationTable";
	case MAD_ATTR_LFT: return "LinearForwardingTable";
	case MAD_ATTR_SM_INFO: return "SMInfo";
	default:
		snprintf(buf, len, "attr 0x%04x", attr_id);
		return buf;
	}
}

int mad_drpath_push(struct topo_path *path, uint8_t port)
{
	if (path->hops >= SMP_MAX_HOPS)
		return -E2BIG;
	path->port[++path->hops] = port;
	return 0;
}

const char *mad_drpath_str(const struct topo_path *path, char *buf, size_t len)
{
	size_t off = 0;

	if (len == 0)
		return buf;
	buf[0] = '\0';
	off += snprintf(buf, len, "0");
	for (unsigned i = 1; i <= path->hops && off < len; i++)
		off += snprintf(buf + off, len - off, ",%u", path->port[i]);
	return buf;
}
