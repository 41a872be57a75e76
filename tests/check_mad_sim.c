// SPDX-License-Identifier: MIT
/*
 * check_mad_sim.c - the simulated fabric, driven through its transport with
 * encoded SMPs as an SM would: directed route and return path, lost SMPs,
 * LID routing through programmed LFTs, port states, M_Key, Trap 128 and
 * PortStateChange, SLtoVL tables, MulticastFDBTop, the hosts' IPoIB joins
 * (on port up and ClientReregister only), injected loss, dead nodes,
 * latency, timed events, the spec.
 *
 * Fabric: tests/topo/chain.topo, H0 - S1 - S2 - S3 - S4 - H5 (H5 port 2).
 */
#include <check.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mad/mad_attr.h"
#include "mad/mad_sa.h"
#include "mad/mad_sa_mcmember.h"
#include "mad/sim/mad_sim.h"
#include "mad/mad_smp.h"
#include "tests/check_util.h"

enum { H0, S1, S2, S3, S4, H5 };	/* node indexes, in file order */

static const uint8_t to_s1[] = { 1 };
static const uint8_t to_s2[] = { 1, 2 };
static const uint8_t to_s3[] = { 1, 2, 2 };
static const uint8_t to_s4[] = { 1, 2, 2, 2 };
static const uint8_t to_h5[] = { 1, 2, 2, 2, 3 };
#define PATH(p) (p), sizeof(p)

static struct sim_fabric *fab;
static struct mad_transport *tr;

static const char *chain_path(void)
{
	static char path[4096];
	const char *d = getenv("top_srcdir");

	snprintf(path, sizeof(path), "%s/tests/topo/chain.topo", d ? d : ".");
	return path;
}

static void setup(void)
{
	char err[256] = "";

	ck_assert_msg(sim_fabric_load(chain_path(), &fab, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(sim_transport_new(fab, &tr), 0);
}

static void teardown(void)
{
	mad_transport_close(tr);
	sim_fabric_free(fab);
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static void send_smp(const struct mad_smp *req, uint16_t dlid)
{
	uint8_t buf[MAD_BLOCK_SIZE];
	struct mad_addr to = { .lid = dlid };

	mad_smp_encode(req, buf);
	ck_assert_int_eq(tr->ops->send(tr, buf, &to), 0);
}

static int recv_smp(struct mad_smp *resp, struct mad_addr *from, int timeout_ms)
{
	uint8_t buf[MAD_BLOCK_SIZE];
	struct mad_addr tmp;
	int rc = mad_transport_recv_mad(tr, buf, from ? from : &tmp, timeout_ms);

	if (rc == 0)
		ck_assert_int_eq(mad_smp_decode(buf, sizeof(buf), resp), 0);
	return rc;
}

static void dr_init(struct mad_smp *smp, const uint8_t *ports, size_t hops, uint8_t method,
		    uint16_t attr, uint32_t mod)
{
	struct topo_path path = { 0 };

	for (size_t i = 0; i < hops; i++)
		ck_assert_int_eq(mad_drpath_push(&path, ports[i]), 0);
	mad_smp_init_dr(smp, method, attr, mod, &path);
	smp->tid = 0x1000 + hops;
}

/* One directed-route SMP and its answer: 0, -EREMOTEIO for an answer with a
 * non-zero status, or -ETIMEDOUT when it was lost. */
static int dr_xfer(const uint8_t *ports, size_t hops, uint8_t method, uint16_t attr,
		   uint32_t mod, const uint8_t *data, struct mad_smp *resp)
{
	struct mad_smp req;

	dr_init(&req, ports, hops, method, attr, mod);
	if (data)
		memcpy(req.data, data, SMP_DATA_SIZE);
	send_smp(&req, MAD_LID_PERMISSIVE);
	int rc = recv_smp(resp, NULL, 0);
	if (rc == 0)
		rc = mad_smp_check_response(&req, resp);
	ck_assert_int_ne(rc, -EBADMSG);
	return rc;
}

static void dr_node_info(const uint8_t *ports, size_t hops, struct mad_node_info *ni)
{
	struct mad_smp resp;

	ck_assert_int_eq(dr_xfer(ports, hops, MAD_METHOD_GET, MAD_ATTR_NODE_INFO, 0, NULL,
				 &resp), 0);
	ck_assert_int_eq(mad_node_info_decode(resp.data, ni), 0);
}

static bool dr_lost(const uint8_t *ports, size_t hops)
{
	struct mad_smp resp;

	return dr_xfer(ports, hops, MAD_METHOD_GET, MAD_ATTR_NODE_INFO, 0, NULL, &resp) ==
	       -ETIMEDOUT;
}

/* PortInfo Set by directed route: read, let @edit change it, write.  The
 * Set's dr_xfer() result, its answer in @resp. */
static int dr_port_try(const uint8_t *ports, size_t hops, uint8_t port,
		       void (*edit)(struct mad_port_info *, uint16_t), uint16_t arg,
		       struct mad_smp *resp)
{
	struct mad_port_info pi;
	uint8_t data[SMP_DATA_SIZE];

	ck_assert_int_eq(dr_xfer(ports, hops, MAD_METHOD_GET, MAD_ATTR_PORT_INFO, port, NULL,
				 resp), 0);
	ck_assert_int_eq(mad_port_info_decode(resp->data, &pi), 0);
	pi.port_state = MAD_PORT_NOP;
	pi.phys_state = MAD_PHYS_NOP;
	edit(&pi, arg);
	mad_port_info_encode(&pi, data);
	return dr_xfer(ports, hops, MAD_METHOD_SET, MAD_ATTR_PORT_INFO, port, data, resp);
}

/* As dr_port_try(), and it must succeed; the answer in @out. */
static void dr_port_set(const uint8_t *ports, size_t hops, uint8_t port,
			void (*edit)(struct mad_port_info *, uint16_t), uint16_t arg,
			struct mad_port_info *out)
{
	struct mad_smp resp;

	ck_assert_int_eq(dr_port_try(ports, hops, port, edit, arg, &resp), 0);
	ck_assert_int_eq(mad_port_info_decode(resp.data, out), 0);
}

static void edit_lid(struct mad_port_info *pi, uint16_t lid)
{
	pi->lid = lid;
	pi->sm_lid = 1;
}

static void edit_state(struct mad_port_info *pi, uint16_t state)
{
	pi->port_state = (uint8_t)state;
}

/* PortInfo Set of PortState @state, the rest as read; the answer's status. */
static uint16_t dr_state_set(const uint8_t *ports, size_t hops, uint8_t port, uint8_t state)
{
	struct mad_smp resp;
	int rc = dr_port_try(ports, hops, port, edit_state, state, &resp);

	ck_assert(rc == 0 || rc == -EREMOTEIO);
	return resp.status;
}

static void dr_lft_set(const uint8_t *ports, size_t hops, uint32_t block,
		       const struct mad_lft_block *b)
{
	uint8_t data[SMP_DATA_SIZE] = { 0 };
	struct mad_smp resp;

	mad_lft_encode(b, data);
	ck_assert_int_eq(dr_xfer(ports, hops, MAD_METHOD_SET, MAD_ATTR_LFT, block, data,
				 &resp), 0);
}

static void dr_switch_set(const uint8_t *ports, size_t hops, const struct mad_switch_info *si)
{
	uint8_t data[SMP_DATA_SIZE] = { 0 };
	struct mad_smp resp;

	mad_switch_info_encode(si, data);
	ck_assert_int_eq(dr_xfer(ports, hops, MAD_METHOD_SET, MAD_ATTR_SWITCH_INFO, 0, data,
				 &resp), 0);
}

/*
 * LIDs: H0 1, S1..S4 2..5, H5 6; SM LID 1 everywhere.  LFTs: LID 1 and 2..k
 * toward H0 (port 1), the rest away (port 2; S4 sends 6 out of port 3).
 */
static void program_lids(void)
{
	static const struct { const uint8_t *p; size_t hops; } sw[] = {
		{ to_s1, 1 }, { to_s2, 2 }, { to_s3, 3 }, { to_s4, 4 },
	};
	struct mad_port_info pi;

	dr_port_set(NULL, 0, 0, edit_lid, 1, &pi);
	ck_assert_uint_eq(pi.lid, 1);
	for (unsigned i = 0; i < 4; i++) {
		dr_port_set(sw[i].p, sw[i].hops, 0, edit_lid, (uint16_t)(2 + i), &pi);
		ck_assert_uint_eq(pi.lid, 2 + i);
		struct mad_lft_block b;
		memset(&b, MAD_LFT_NO_PORT, sizeof(b));
		for (unsigned lid = 1; lid <= 6; lid++)
			b.port[lid] = lid == 2 + i ? 0 : lid < 2 + i ? 1 : (i == 3 ? 3 : 2);
		dr_lft_set(sw[i].p, sw[i].hops, 0, &b);
		struct mad_switch_info si = { .lft_top = 6 };
		dr_switch_set(sw[i].p, sw[i].hops, &si);
	}
	dr_port_set(to_h5, 5, 2, edit_lid, 6, &pi);
	ck_assert_uint_eq(pi.lid, 6);
}

START_TEST(dr_node_info_five_hops)
{
	struct mad_smp req, resp;
	const struct topo *t = sim_fabric_topo(fab);

	dr_init(&req, PATH(to_h5), MAD_METHOD_GET, MAD_ATTR_NODE_INFO, 0);
	send_smp(&req, MAD_LID_PERMISSIVE);
	ck_assert_int_eq(recv_smp(&resp, NULL, 0), 0);
	ck_assert_int_eq(mad_smp_check_response(&req, &resp), 0);
	ck_assert(resp.direction);
	ck_assert_uint_eq(resp.hop_cnt, 5);
	ck_assert_uint_eq(resp.hop_ptr, 0);
	static const uint8_t ret[] = { 0, 1, 1, 1, 1, 2 };
	ck_assert_mem_eq(resp.return_path, ret, sizeof(ret));
	ck_assert_mem_eq(resp.initial_path + 1, to_h5, sizeof(to_h5));
	struct mad_node_info ni;
	ck_assert_int_eq(mad_node_info_decode(resp.data, &ni), 0);
	ck_assert_uint_eq(ni.node_type, MAD_NODE_CA);
	ck_assert_uint_eq(ni.num_ports, 2);
	ck_assert_uint_eq(ni.node_guid, t->nodes[H5].guid);
	ck_assert_uint_eq(ni.node_guid, 0x100002);	/* ibsim's numbering */
	ck_assert_uint_eq(ni.port_guid, 0x100004);	/* port 2 */
	ck_assert_uint_eq(ni.local_port, 2);
	/* a switch on the way answers with the port the SMP entered by */
	dr_node_info(PATH(to_s3), &ni);
	ck_assert_uint_eq(ni.node_type, MAD_NODE_SWITCH);
	ck_assert_uint_eq(ni.node_guid, 0x200002);
	ck_assert_uint_eq(ni.local_port, 1);
	struct sim_stats st;
	sim_get_stats(fab, &st);
	ck_assert_uint_eq(st.smps_in, 2);
	ck_assert_uint_eq(st.responses, 2);
	ck_assert_uint_eq(st.dropped, 0);
}
END_TEST

START_TEST(dr_zero_hops_and_switch_attach)
{
	struct mad_node_info ni;

	dr_node_info(NULL, 0, &ni);
	ck_assert_uint_eq(ni.node_guid, 0x100000);
	ck_assert_uint_eq(ni.local_port, 1);
	/* an SM on a switch sits at port 0; the switch answers a 0-hop SMP */
	ck_assert_int_eq(sim_set_attach(fab, S2, 3), -EINVAL);
	ck_assert_int_eq(sim_set_attach(fab, S2, 0), 0);
	dr_node_info(NULL, 0, &ni);
	ck_assert_uint_eq(ni.node_guid, 0x200001);
	ck_assert_uint_eq(ni.local_port, 0);
	static const uint8_t s2_to_h0[] = { 1, 1 };
	dr_node_info(PATH(s2_to_h0), &ni);
	ck_assert_uint_eq(ni.node_guid, 0x100000);
}
END_TEST

START_TEST(dr_bad_hop_pointer_discarded)
{
	struct mad_smp req, resp;
	struct sim_stats st;

	dr_init(&req, PATH(to_s2), MAD_METHOD_GET, MAD_ATTR_NODE_INFO, 0);
	req.hop_ptr = 1;
	send_smp(&req, MAD_LID_PERMISSIVE);
	ck_assert_int_eq(recv_smp(&resp, NULL, 0), -ETIMEDOUT);
	/* a request with the direction bit set is no request either */
	dr_init(&req, PATH(to_s2), MAD_METHOD_GET, MAD_ATTR_NODE_INFO, 0);
	req.direction = true;
	send_smp(&req, MAD_LID_PERMISSIVE);
	ck_assert_int_eq(recv_smp(&resp, NULL, 0), -ETIMEDOUT);
	/* LID-routed parts of a directed route are not modelled: dropped */
	dr_init(&req, PATH(to_s2), MAD_METHOD_GET, MAD_ATTR_NODE_INFO, 0);
	req.dr_slid = 1;
	send_smp(&req, MAD_LID_PERMISSIVE);
	ck_assert_int_eq(recv_smp(&resp, NULL, 0), -ETIMEDOUT);
	/* hop count 64 is beyond what a directed route can carry (IBA 14.2.2) */
	uint8_t buf[MAD_BLOCK_SIZE];
	struct mad_addr to = { .lid = MAD_LID_PERMISSIVE };
	dr_init(&req, PATH(to_s2), MAD_METHOD_GET, MAD_ATTR_NODE_INFO, 0);
	mad_smp_encode(&req, buf);
	buf[7] = 64;	/* the HopCount byte */
	ck_assert_int_eq(tr->ops->send(tr, buf, &to), 0);
	ck_assert_int_eq(recv_smp(&resp, NULL, 0), -ETIMEDOUT);
	sim_get_stats(fab, &st);
	ck_assert_uint_eq(st.smps_in, 4);
	ck_assert_uint_eq(st.dropped, 4);
	ck_assert_uint_eq(st.responses, 0);
}
END_TEST

START_TEST(dr_lost_on_bad_ports)
{
	static const uint8_t unconnected[] = { 1, 2, 2, 2, 4 };
	static const uint8_t beyond[] = { 1, 9 };
	static const uint8_t wrong_first[] = { 2 };		/* H0 has port 1 only */
	static const uint8_t through_ca[] = { 1, 1, 1 };	/* H0 does not forward */
	struct sim_stats st;

	ck_assert(dr_lost(PATH(unconnected)));
	ck_assert(dr_lost(PATH(beyond)));
	ck_assert(dr_lost(PATH(wrong_first)));
	ck_assert(dr_lost(PATH(through_ca)));
	sim_get_stats(fab, &st);
	ck_assert_uint_eq(st.dropped, 4);
	/* a link taken down loses SMPs both ways */
	ck_assert_int_eq(sim_link_set(fab, S2, 2, false), 0);
	ck_assert(dr_lost(PATH(to_s3)));
	ck_assert(!dr_lost(PATH(to_s2)));
	ck_assert_int_eq(sim_link_set(fab, S3, 1, true), 0);
	ck_assert(!dr_lost(PATH(to_h5)));
	ck_assert_int_eq(sim_link_set(fab, S4, 4, false), -ENOTCONN);
}
END_TEST

START_TEST(lid_routed_through_lfts)
{
	struct mad_smp req, resp;
	struct mad_addr from;
	struct mad_node_info ni;
	struct mad_local_port lp;

	program_lids();
	ck_assert_int_eq(tr->ops->local_port(tr, &lp), 0);
	ck_assert_uint_eq(lp.lid, 1);
	ck_assert_uint_eq(lp.sm_lid, 1);
	ck_assert_uint_eq(lp.port_num, 1);
	ck_assert_uint_eq(lp.port_guid, 0x100001);
	ck_assert_uint_eq(sim_get_lft(fab, S3, 6), 2);
	mad_smp_init_lid(&req, MAD_METHOD_GET, MAD_ATTR_NODE_INFO, 0);
	req.tid = 77;
	send_smp(&req, 6);
	ck_assert_int_eq(recv_smp(&resp, &from, 0), 0);
	ck_assert_int_eq(mad_smp_check_response(&req, &resp), 0);
	ck_assert_uint_eq(resp.mgmt_class, MAD_CLASS_SMI);
	ck_assert_uint_eq(from.lid, 6);
	ck_assert_int_eq(mad_node_info_decode(resp.data, &ni), 0);
	ck_assert_uint_eq(ni.node_guid, 0x100002);
	ck_assert_uint_eq(ni.local_port, 2);
	/* a switch by its LID */
	send_smp(&req, 4);
	ck_assert_int_eq(recv_smp(&resp, &from, 0), 0);
	ck_assert_int_eq(mad_node_info_decode(resp.data, &ni), 0);
	ck_assert_uint_eq(ni.node_guid, 0x200002);
	ck_assert_uint_eq(ni.local_port, 1);
	/* a wrong LFT entry on the way out loses the SMP */
	struct mad_lft_block b;
	memset(&b, MAD_LFT_NO_PORT, sizeof(b));
	b.port[1] = 1;
	b.port[4] = 0;
	b.port[5] = 2;
	b.port[6] = 3;	/* S3 port 3 is not cabled */
	dr_lft_set(PATH(to_s3), 0, &b);
	send_smp(&req, 6);
	ck_assert_int_eq(recv_smp(&resp, &from, 0), -ETIMEDOUT);
	/* and so does one on the way back */
	b.port[6] = 2;
	b.port[1] = MAD_LFT_NO_PORT;
	dr_lft_set(PATH(to_s3), 0, &b);
	send_smp(&req, 6);
	ck_assert_int_eq(recv_smp(&resp, &from, 0), -ETIMEDOUT);
	/* entries above LinearFDBTop do not forward */
	b.port[1] = 1;
	dr_lft_set(PATH(to_s3), 0, &b);
	send_smp(&req, 6);
	ck_assert_int_eq(recv_smp(&resp, &from, 0), 0);
	struct mad_switch_info si = { .lft_top = 5 };
	dr_switch_set(PATH(to_s3), &si);
	send_smp(&req, 6);
	ck_assert_int_eq(recv_smp(&resp, &from, 0), -ETIMEDOUT);
	/* a LID nobody owns */
	send_smp(&req, 40);
	ck_assert_int_eq(recv_smp(&resp, &from, 0), -ETIMEDOUT);
}
END_TEST

START_TEST(port_state_machine)
{
	struct mad_port_info pi;

	ck_assert_int_eq(sim_get_port_info(fab, H5, 2, &pi), 0);
	ck_assert_uint_eq(pi.port_state, MAD_PORT_INIT);
	ck_assert_uint_eq(pi.phys_state, MAD_PHYS_LINKUP);
	ck_assert_int_eq(sim_get_port_info(fab, S4, 0, &pi), 0);
	ck_assert_uint_eq(pi.port_state, MAD_PORT_ACTIVE);	/* management port */
	ck_assert_int_eq(sim_get_port_info(fab, H5, 1, &pi), 0);
	ck_assert_uint_eq(pi.port_state, MAD_PORT_DOWN);
	ck_assert_uint_eq(pi.phys_state, MAD_PHYS_POLLING);
	/* INIT -> ACTIVE is illegal: refused with 0x1C as hardware does, or, on a
	 * lenient fabric (ibsim), ignored and answered with the state unchanged */
	ck_assert_uint_eq(dr_state_set(PATH(to_h5), 2, MAD_PORT_ACTIVE), MAD_STATUS_INVALID_FIELD);
	sim_set_lenient(fab, SIM_LENIENT_PORT_STATE);
	dr_port_set(PATH(to_h5), 2, edit_state, MAD_PORT_ACTIVE, &pi);
	ck_assert_uint_eq(pi.port_state, MAD_PORT_INIT);
	ck_assert_uint_eq(pi.local_port, 2);
	sim_set_lenient(fab, 0);
	dr_port_set(PATH(to_h5), 2, edit_state, MAD_PORT_ARMED, &pi);
	ck_assert_uint_eq(pi.port_state, MAD_PORT_ARMED);
	dr_port_set(PATH(to_h5), 2, edit_state, MAD_PORT_ACTIVE, &pi);
	ck_assert_uint_eq(pi.port_state, MAD_PORT_ACTIVE);
	ck_assert_int_eq(sim_get_port_info(fab, H5, 2, &pi), 0);
	ck_assert_uint_eq(pi.port_state, MAD_PORT_ACTIVE);
	/* ACTIVE again on an ACTIVE port: 0x1C, the whole Set refused */
	ck_assert_uint_eq(dr_state_set(PATH(to_h5), 2, MAD_PORT_ACTIVE), MAD_STATUS_INVALID_FIELD);
	sim_set_lenient(fab, SIM_LENIENT_PORT_STATE);
	ck_assert_uint_eq(dr_state_set(PATH(to_h5), 2, MAD_PORT_ACTIVE), 0);
	sim_set_lenient(fab, 0);
	/* the peer's port is unaffected */
	ck_assert_int_eq(sim_get_port_info(fab, S4, 3, &pi), 0);
	ck_assert_uint_eq(pi.port_state, MAD_PORT_INIT);
	/* a CA takes a PortInfo Set only for the port the SMP came in on */
	struct mad_smp resp;
	uint8_t data[SMP_DATA_SIZE];
	ck_assert_int_eq(sim_get_port_info(fab, H5, 1, &pi), 0);
	pi.port_state = MAD_PORT_ARMED;
	mad_port_info_encode(&pi, data);
	ck_assert_int_eq(dr_xfer(PATH(to_h5), MAD_METHOD_SET, MAD_ATTR_PORT_INFO, 1, data, &resp),
			 -EREMOTEIO);
	ck_assert_uint_eq(resp.status, MAD_STATUS_INVALID_FIELD);
	ck_assert_int_eq(sim_get_port_info(fab, H5, 1, &pi), 0);
	ck_assert_uint_eq(pi.port_state, MAD_PORT_DOWN);
	/* a link going down and up returns both ends to INIT */
	ck_assert_int_eq(sim_link_set(fab, S4, 3, false), 0);
	ck_assert_int_eq(sim_get_port_info(fab, H5, 2, &pi), 0);
	ck_assert_uint_eq(pi.port_state, MAD_PORT_DOWN);
	ck_assert_int_eq(sim_link_set(fab, S4, 3, true), 0);
	ck_assert_int_eq(sim_get_port_info(fab, H5, 2, &pi), 0);
	ck_assert_uint_eq(pi.port_state, MAD_PORT_INIT);
	ck_assert_uint_eq(pi.phys_state, MAD_PHYS_LINKUP);
}
END_TEST

/* An ARMED port goes ACTIVE on its first data packet: after a delay, here. */
START_TEST(armed_goes_active_by_itself)
{
	struct mad_port_info pi;

	sim_set_arm_to_active(fab, 20);
	dr_port_set(PATH(to_h5), 2, edit_state, MAD_PORT_ARMED, &pi);
	ck_assert_uint_eq(pi.port_state, MAD_PORT_ARMED);
	usleep(30000);
	ck_assert_int_eq(sim_get_port_info(fab, H5, 2, &pi), 0);
	ck_assert_uint_eq(pi.port_state, MAD_PORT_ACTIVE);
	ck_assert_uint_eq(dr_state_set(PATH(to_h5), 2, MAD_PORT_ACTIVE), MAD_STATUS_INVALID_FIELD);
	/* never, by default */
	sim_set_arm_to_active(fab, -1);
	dr_port_set(PATH(to_s4), 3, edit_state, MAD_PORT_ARMED, &pi);
	usleep(30000);
	ck_assert_int_eq(sim_get_port_info(fab, S4, 3, &pi), 0);
	ck_assert_uint_eq(pi.port_state, MAD_PORT_ARMED);
}
END_TEST

/* VL15 has no flow control: a node holds SIM_SMP_BUFFER SMPs (or what
 * sim_set_smp_buffer says), each until the SM reads its answer; more are lost. */
START_TEST(smp_buffer_overflow_drops)
{
	struct mad_smp req, resp;
	struct sim_stats st;

	sim_set_smp_buffer(fab, 2);
	dr_init(&req, PATH(to_s2), MAD_METHOD_GET, MAD_ATTR_NODE_INFO, 0);
	for (unsigned i = 0; i < 3; i++)
		send_smp(&req, MAD_LID_PERMISSIVE);
	dr_init(&req, PATH(to_s3), MAD_METHOD_GET, MAD_ATTR_NODE_INFO, 0);
	send_smp(&req, MAD_LID_PERMISSIVE);	/* another node: its own buffer */
	for (unsigned i = 0; i < 3; i++)
		ck_assert_int_eq(recv_smp(&resp, NULL, 0), 0);
	ck_assert_int_eq(recv_smp(&resp, NULL, 0), -ETIMEDOUT);
	sim_get_stats(fab, &st);
	ck_assert_uint_eq(st.overflows, 1);
	ck_assert_uint_eq(st.dropped, 1);
	/* answers read: room again */
	dr_init(&req, PATH(to_s2), MAD_METHOD_GET, MAD_ATTR_NODE_INFO, 0);
	for (unsigned i = 0; i < 2; i++)
		send_smp(&req, MAD_LID_PERMISSIVE);
	for (unsigned i = 0; i < 2; i++)
		ck_assert_int_eq(recv_smp(&resp, NULL, 0), 0);
	/* the default holds SIM_SMP_BUFFER; 0 lifts the limit */
	sim_set_smp_buffer(fab, 0);
	for (unsigned i = 0; i < 50; i++)
		send_smp(&req, MAD_LID_PERMISSIVE);
	for (unsigned i = 0; i < 50; i++)
		ck_assert_int_eq(recv_smp(&resp, NULL, 0), 0);
	sim_get_stats(fab, &st);
	ck_assert_uint_eq(st.overflows, 1);
}
END_TEST

/* SMInfo to a port where another SM is bound goes to that SM, and holds the
 * port's VL15 buffer until that SM reads it (its QP0 took it off the port):
 * not until an answer, which the other SM may never send.  An SM that unbinds
 * frees what its unread MADs held. */
START_TEST(sm_info_to_sm_holds_its_port_buffer)
{
	struct mad_transport *peer;
	struct mad_smp req, resp;
	struct sim_stats st;
	uint8_t buf[MAD_BLOCK_SIZE];
	struct mad_addr from;

	sim_set_smp_buffer(fab, 2);
	ck_assert_int_eq(sim_transport_new_at(fab, H5, 2, &peer), 0);
	dr_init(&req, PATH(to_h5), MAD_METHOD_GET, MAD_ATTR_SM_INFO, 0);
	for (unsigned i = 0; i < 3; i++)
		send_smp(&req, MAD_LID_PERMISSIVE);
	sim_get_stats(fab, &st);
	ck_assert_uint_eq(st.overflows, 1);
	for (unsigned i = 0; i < 2; i++) {
		ck_assert_int_eq(mad_transport_recv_mad(peer, buf, &from, 0), 0);
		ck_assert_int_eq(mad_smp_decode(buf, sizeof(buf), &resp), 0);
		ck_assert_uint_eq(resp.attr_id, MAD_ATTR_SM_INFO);
	}
	ck_assert_int_eq(mad_transport_recv_mad(peer, buf, &from, 0), -ETIMEDOUT);
	/* read by the peer, unanswered: the buffer is free again */
	for (unsigned i = 0; i < 2; i++)
		send_smp(&req, MAD_LID_PERMISSIVE);
	for (unsigned i = 0; i < 2; i++)
		ck_assert_int_eq(mad_transport_recv_mad(peer, buf, &from, 0), 0);
	ck_assert_int_eq(recv_smp(&resp, NULL, 0), -ETIMEDOUT);
	/* left unread, then the peer goes away: its port's SMA answers again */
	for (unsigned i = 0; i < 2; i++)
		send_smp(&req, MAD_LID_PERMISSIVE);
	mad_transport_close(peer);
	dr_init(&req, PATH(to_h5), MAD_METHOD_GET, MAD_ATTR_NODE_INFO, 0);
	for (unsigned i = 0; i < 2; i++)
		send_smp(&req, MAD_LID_PERMISSIVE);
	for (unsigned i = 0; i < 2; i++)
		ck_assert_int_eq(recv_smp(&resp, NULL, 0), 0);
	sim_get_stats(fab, &st);
	ck_assert_uint_eq(st.overflows, 1);
}
END_TEST

static void edit_mkey(struct mad_port_info *pi, uint16_t prot)
{
	pi->mkey = 0x1234;
	pi->mkey_prot = (uint8_t)prot;
}

START_TEST(mkey_protection)
{
	struct mad_smp req, resp;
	struct mad_port_info pi;

	dr_port_set(PATH(to_s2), 0, edit_mkey, 1, &pi);
	ck_assert_uint_eq(pi.mkey, 0x1234);
	/* level 1: a Get with the wrong key is answered, the key hidden */
	ck_assert_int_eq(dr_xfer(PATH(to_s2), MAD_METHOD_GET, MAD_ATTR_PORT_INFO, 3, NULL,
				 &resp), 0);
	ck_assert_int_eq(mad_port_info_decode(resp.data, &pi), 0);
	ck_assert_uint_eq(pi.mkey, 0);
	ck_assert_uint_eq(pi.mkey_prot, 1);
	/* the right key shows it */
	dr_init(&req, PATH(to_s2), MAD_METHOD_GET, MAD_ATTR_PORT_INFO, 0);
	req.mkey = 0x1234;
	send_smp(&req, MAD_LID_PERMISSIVE);
	ck_assert_int_eq(recv_smp(&resp, NULL, 0), 0);
	ck_assert_int_eq(mad_port_info_decode(resp.data, &pi), 0);
	ck_assert_uint_eq(pi.mkey, 0x1234);
	/* a Set with the wrong key is dropped and counted */
	pi.lid = 99;
	pi.port_state = MAD_PORT_NOP;	/* port 0 is ACTIVE: asking ACTIVE again is refused */
	dr_init(&req, PATH(to_s2), MAD_METHOD_SET, MAD_ATTR_PORT_INFO, 0);
	mad_port_info_encode(&pi, req.data);
	req.mkey = 0x9999;
	send_smp(&req, MAD_LID_PERMISSIVE);
	ck_assert_int_eq(recv_smp(&resp, NULL, 0), -ETIMEDOUT);
	ck_assert_int_eq(sim_get_port_info(fab, S2, 0, &pi), 0);
	ck_assert_uint_eq(pi.lid, 0);
	ck_assert_uint_eq(pi.mkey_violations, 1);
	/* with the right key it goes through; level 2 then drops wrong-key Gets */
	pi.lid = 99;
	pi.mkey_prot = 2;
	pi.port_state = MAD_PORT_NOP;
	dr_init(&req, PATH(to_s2), MAD_METHOD_SET, MAD_ATTR_PORT_INFO, 0);
	mad_port_info_encode(&pi, req.data);
	req.mkey = 0x1234;
	send_smp(&req, MAD_LID_PERMISSIVE);
	ck_assert_int_eq(recv_smp(&resp, NULL, 0), 0);
	ck_assert_int_eq(mad_port_info_decode(resp.data, &pi), 0);
	ck_assert_uint_eq(pi.lid, 99);
	ck_assert_uint_eq(pi.mkey_prot, 2);
	ck_assert(dr_lost(PATH(to_s2)));
	ck_assert_int_eq(sim_get_port_info(fab, S2, 0, &pi), 0);
	ck_assert_uint_eq(pi.mkey_violations, 2);
	/* other nodes keep M_Key 0, which matches anything */
	ck_assert(!dr_lost(PATH(to_s3)));
}
END_TEST

START_TEST(link_down_trap_128)
{
	struct mad_smp trap, resp;
	struct mad_addr from;
	struct mad_switch_info si;
	struct mad_notice n;
	struct sim_stats st;

	program_lids();
	ck_assert_int_eq(sim_get_switch_info(fab, S4, &si), 0);
	ck_assert(!si.port_state_change);
	ck_assert_int_eq(sim_link_set(fab, H5, 2, false), 0);
	ck_assert_int_eq(recv_smp(&trap, &from, 0), 0);
	ck_assert_uint_eq(trap.mgmt_class, MAD_CLASS_SMI);
	ck_assert_uint_eq(trap.method, MAD_METHOD_TRAP);
	ck_assert_uint_eq(trap.attr_id, MAD_ATTR_NOTICE);
	ck_assert_uint_eq(from.lid, 5);
	ck_assert_int_eq(mad_notice_decode(trap.data, &n), 0);
	ck_assert(n.is_generic);
	ck_assert_uint_eq(n.type, 1);
	ck_assert_uint_eq(n.producer_type, 2);
	ck_assert_uint_eq(n.trap_num, MAD_TRAP_LINK_STATE_CHANGE);
	ck_assert_uint_eq(n.issuer_lid, 5);
	ck_assert_uint_eq(mad_notice_lid(&n), 5);
	ck_assert_int_eq(recv_smp(&trap, &from, 0), -ETIMEDOUT);	/* H5 is a CA */
	ck_assert_int_eq(sim_get_switch_info(fab, S4, &si), 0);
	ck_assert(si.port_state_change);
	ck_assert_int_eq(sim_get_switch_info(fab, S3, &si), 0);
	ck_assert(!si.port_state_change);
	/* PortStateChange: write 1 to clear */
	si = (struct mad_switch_info){ .lft_top = 6, .port_state_change = true };
	dr_switch_set(PATH(to_s4), &si);
	ck_assert_int_eq(sim_get_switch_info(fab, S4, &si), 0);
	ck_assert(!si.port_state_change);
	ck_assert_uint_eq(si.lft_top, 6);
	/* a switch-to-switch link: both ends trap, and the far one's trap is lost
	 * on the very link that went down */
	ck_assert_int_eq(sim_link_set(fab, S2, 2, false), 0);
	ck_assert_int_eq(recv_smp(&trap, &from, 0), 0);
	ck_assert_uint_eq(from.lid, 3);
	ck_assert_int_eq(recv_smp(&resp, &from, 0), -ETIMEDOUT);
	sim_get_stats(fab, &st);
	ck_assert_uint_eq(st.traps, 3);
	/* back up: both ends trap, the end named first */
	ck_assert_int_eq(sim_link_set(fab, S3, 1, true), 0);
	ck_assert_int_eq(recv_smp(&trap, &from, 0), 0);
	ck_assert_uint_eq(from.lid, 4);
	ck_assert_int_eq(recv_smp(&trap, &from, 0), 0);
	ck_assert_uint_eq(from.lid, 3);
	ck_assert_int_eq(recv_smp(&trap, &from, 0), -ETIMEDOUT);
}
END_TEST

static unsigned count_answers(unsigned tries)
{
	unsigned got = 0;

	for (unsigned i = 0; i < tries; i++)
		got += !dr_lost(PATH(to_s2));
	return got;
}

START_TEST(loss_rate_with_seed)
{
	enum { TRIES = 4000 };

	/* each SMP to S2 crosses the lossy link twice: answered (1 - 0.3)^2 = 49% */
	ck_assert_int_eq(sim_link_loss(fab, S1, 2, 0.3), 0);
	sim_set_seed(fab, 42);
	unsigned got = count_answers(TRIES);
	ck_assert_uint_ge(got, TRIES * 45 / 100);
	ck_assert_uint_le(got, TRIES * 53 / 100);
	sim_set_seed(fab, 42);
	ck_assert_uint_eq(count_answers(TRIES), got);
	/* SMPs to S1 do not cross that link */
	ck_assert(!dr_lost(PATH(to_s1)));
	ck_assert_int_eq(sim_link_loss(fab, S2, 1, 0), 0);
	ck_assert_uint_eq(count_answers(100), 100);
	ck_assert_int_eq(sim_link_loss(fab, S2, 1, 1.5), -EINVAL);
}
END_TEST

START_TEST(dead_node)
{
	ck_assert_int_eq(sim_node_dead(fab, S3, true), 0);
	ck_assert(dr_lost(PATH(to_s3)));
	ck_assert(dr_lost(PATH(to_s4)));
	ck_assert(!dr_lost(PATH(to_s2)));
	ck_assert_int_eq(sim_node_dead(fab, S3, false), 0);
	ck_assert(!dr_lost(PATH(to_h5)));
	ck_assert_int_eq(sim_node_dead(fab, 99, true), -EINVAL);
}
END_TEST

START_TEST(latency_holds_answers)
{
	struct mad_smp req, resp;

	sim_set_latency(fab, 80000);
	dr_init(&req, PATH(to_s1), MAD_METHOD_GET, MAD_ATTR_NODE_INFO, 0);
	uint64_t t0 = now_ms();
	send_smp(&req, MAD_LID_PERMISSIVE);
	ck_assert_int_eq(recv_smp(&resp, NULL, 0), -ETIMEDOUT);
	ck_assert_int_eq(recv_smp(&resp, NULL, 10), -ETIMEDOUT);
	/* the fd turns readable when the answer is due */
	struct pollfd pfd = { .fd = tr->ops->fd(tr), .events = POLLIN };
	ck_assert_int_ge(pfd.fd, 0);
	ck_assert_int_eq(poll(&pfd, 1, 1000), 1);
	ck_assert_uint_ge(now_ms() - t0, 79);
	ck_assert_int_eq(recv_smp(&resp, NULL, 0), 0);
	ck_assert_int_eq(mad_smp_check_response(&req, &resp), 0);
	ck_assert_int_eq(poll(&pfd, 1, 0), 0);
	/* recv() waits for it too */
	t0 = now_ms();
	send_smp(&req, MAD_LID_PERMISSIVE);
	ck_assert_int_eq(recv_smp(&resp, NULL, 1000), 0);
	ck_assert_uint_ge(now_ms() - t0, 79);
	ck_assert_uint_lt(now_ms() - t0, 900);
}
END_TEST

static char *write_tmp(const char *text)
{
	static char path[64];
	strcpy(path, "/tmp/check_mad_sim.XXXXXX");
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return path;
}

START_TEST(event_file_applied_in_time)
{
	struct mad_port_info pi;
	char err[256] = "";
	char *path = write_tmp("# faults\n"
			       "400 link-up \"S4\"[3]\n"
			       "200 link-down \"H5\"[2]   # H5 unplugged\n"
			       "200 loss \"S1\"[2] 0\n"
			       "100 counter \"S1\"[2] symbol_errors 70000\n"
			       "100 counter \"S1\"[2] xmit_data 5e9\n"
			       "600 dead \"S2\"\n"
			       "300 ar \"S1\"\n"
			       "100 width \"S1\"[2] 1\n"
			       "0 latency 0\n");
	struct mad_ar_info ai;

	ck_assert_msg(sim_events_load(fab, path, err, sizeof(err)) == 0, "%s", err);
	unlink(path);
	/* events count from the transport's open */
	mad_transport_close(tr);
	ck_assert_int_eq(sim_transport_new(fab, &tr), 0);
	uint64_t t0 = now_ms();
	ck_assert(!dr_lost(PATH(to_h5)));
	while (now_ms() - t0 < 250)
		usleep(5000);
	ck_assert(dr_lost(PATH(to_h5)));
	ck_assert_int_eq(sim_get_port_info(fab, H5, 2, &pi), 0);
	ck_assert_uint_eq(pi.port_state, MAD_PORT_DOWN);
	ck_assert_int_eq(sim_get_ar_info(fab, S1, &ai), -EOPNOTSUPP);
	/* counters as hardware keeps them: 16 and 32 bits saturate, 64 do not */
	struct mad_port_counters pc;
	struct mad_port_counters_ext pce;
	ck_assert_int_eq(sim_perf_get(fab, S1, 2, &pc, &pce), 0);
	ck_assert_uint_eq(pc.symbol_errors, UINT16_MAX);
	ck_assert_uint_eq(pc.xmit_data, UINT32_MAX);
	ck_assert_uint_eq(pce.xmit_data, 5000000000ULL);
	/* the width event: S1[2] enables 1x only, and its link trained so */
	ck_assert_int_eq(sim_get_port_info(fab, S1, 2, &pi), 0);
	ck_assert_uint_eq(pi.link_width_enabled, 1);
	ck_assert_uint_eq(pi.link_width_active, 1);
	while (now_ms() - t0 < 450)
		usleep(5000);
	ck_assert(!dr_lost(PATH(to_h5)));
	ck_assert_int_eq(sim_get_ar_info(fab, S1, &ai), 0);	/* the ar event */
	/* recv() applies events that fall due while it waits */
	struct mad_smp resp;
	ck_assert_int_eq(recv_smp(&resp, NULL, (int)(650 - (now_ms() - t0))), -ETIMEDOUT);
	ck_assert(dr_lost(PATH(to_s2)));
}
END_TEST

START_TEST(bad_event_files)
{
	static const struct { const char *text; const char *msg; } cases[] = {
		{ "10 explode \"S1\"\n", ":1: unknown event 'explode'" },
		{ "\n10 dead \"S9\"\n", ":2: unknown node \"S9\"" },
		{ "10 link-down \"H5\"[1]\n", ":1: \"H5\"[1] is not cabled" },
		{ "10 link-down \"S1\"\n", ":1: expected a port of \"S1\" as [1..4]" },
		{ "10 loss \"S1\"[2] 2\n", ":1: expected a number from 0 to 1" },
		{ "soon dead \"S1\"\n", ":1: expected a number from 0 to 1e+09" },
		{ "10 dead \"S1\" now\n", ":1: unexpected text 'now'" },
		{ "10 ar \"H5\"\n", ":1: \"H5\" is no switch" },
		{ "10 counter \"S1\"[2] bogons 1\n", ":1: unknown counter 'bogons'" },
		{ "10 counter \"S1\"[2] xmit_wait -1\n", ":1: expected a number from 0 to 1e+15" },
		{ "10 counter \"S1\" xmit_wait 1\n", ":1: expected a port of \"S1\" as [1..4]" },
		{ "0 pma-tick \"S1\" 256\n", ":1: expected a number from 0 to 255" },
		{ "0 pma-tick \"S1\" 1.5\n", ":1: expected a whole tick from 0 to 255" },
		{ "0 pma-tick \"S1\"\n", ":1: expected a number from 0 to 255" },
		{ "0 width \"S1\"[2] 0\n", ":1: expected a LinkWidthEnabled mask from 1 to 255" },
		{ "0 width \"S1\"[2] 256\n", ":1: expected a number from 0 to 255" },
		{ "0 width \"S1\" 1\n", ":1: expected a port of \"S1\" as [1..4]" },
		/* a file that is no events file: a token of it, never the line */
		{ "10 root:$y$j9T$salt$hash:19700:0:99999:7:::\n", ":1: unknown event 'root...'" },
		{ "10 dead \"S1\" \x1b]52;c;c2VjcmV0\x07\n", ":1: unexpected text '...'" },
	};
	char err[256];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *path = write_tmp(cases[i].text);
		ck_assert_int_eq(sim_events_load(fab, path, err, sizeof(err)), -EINVAL);
		ck_assert_msg(strncmp(err, path, strlen(path)) == 0, "%s", err);
		ck_assert_str_eq(err + strlen(path), cases[i].msg);
		unlink(path);
	}
	ck_assert_int_eq(sim_events_load(fab, "/nonexistent/ev", err, sizeof(err)), -ENOENT);
	ck_assert_str_eq(err, "/nonexistent/ev:0: cannot open: No such file or directory");
}
END_TEST

START_TEST(attributes)
{
	struct mad_smp resp;
	struct mad_node_desc nd;
	struct mad_switch_info si;
	struct mad_pkey_block pk;
	struct mad_lft_block lft;

	ck_assert_int_eq(dr_xfer(PATH(to_s4), MAD_METHOD_GET, MAD_ATTR_NODE_DESC, 0, NULL,
				 &resp), 0);
	ck_assert_int_eq(mad_node_desc_decode(resp.data, &nd), 0);
	ck_assert_str_eq(nd.desc, "S4");
	ck_assert_int_eq(dr_xfer(PATH(to_s4), MAD_METHOD_GET, MAD_ATTR_SWITCH_INFO, 0, NULL,
				 &resp), 0);
	ck_assert_int_eq(mad_switch_info_decode(resp.data, &si), 0);
	ck_assert_uint_eq(si.lft_cap, 49152);
	ck_assert_uint_eq(si.lft_top, 0);
	/* an LFT block nobody wrote routes nowhere; one written reads back */
	ck_assert_int_eq(dr_xfer(PATH(to_s4), MAD_METHOD_GET, MAD_ATTR_LFT, 767, NULL, &resp), 0);
	ck_assert_int_eq(mad_lft_decode(resp.data, &lft), 0);
	ck_assert_uint_eq(lft.port[63], MAD_LFT_NO_PORT);
	memset(&lft, 2, sizeof(lft));
	dr_lft_set(PATH(to_s4), 767, &lft);
	ck_assert_uint_eq(sim_get_lft(fab, S4, 49151), 2);
	ck_assert_uint_eq(sim_get_lft(fab, S4, 49087), MAD_LFT_NO_PORT);
	ck_assert_int_eq(dr_xfer(PATH(to_s4), MAD_METHOD_GET, MAD_ATTR_LFT, 768, NULL, &resp),
			 -EREMOTEIO);
	ck_assert_uint_eq(resp.status, MAD_STATUS_INVALID_FIELD);
	/* no SM runs in the fabric; CAs have no LFT; NodeInfo is read-only */
	ck_assert_int_eq(dr_xfer(PATH(to_s4), MAD_METHOD_GET, MAD_ATTR_SM_INFO, 0, NULL, &resp),
			 -EREMOTEIO);
	ck_assert_uint_eq(resp.status, MAD_STATUS_METHOD_ATTR_UNSUPPORTED);
	ck_assert_int_eq(dr_xfer(PATH(to_h5), MAD_METHOD_GET, MAD_ATTR_LFT, 0, NULL, &resp),
			 -EREMOTEIO);
	ck_assert_uint_eq(resp.status, MAD_STATUS_METHOD_ATTR_UNSUPPORTED);
	ck_assert_int_eq(dr_xfer(PATH(to_h5), MAD_METHOD_SET, MAD_ATTR_NODE_INFO, 0, resp.data,
				 &resp), -EREMOTEIO);
	ck_assert_uint_eq(resp.status, MAD_STATUS_METHOD_ATTR_UNSUPPORTED);
	/* P_Key tables: the default P_Key at index 0; a switch's per port */
	ck_assert_int_eq(dr_xfer(PATH(to_s4), MAD_METHOD_GET, MAD_ATTR_PKEY_TABLE, 3u << 16,
				 NULL, &resp), 0);
	ck_assert_int_eq(mad_pkey_decode(resp.data, &pk), 0);
	ck_assert_uint_eq(pk.pkey[0], 0xffff);
	ck_assert_uint_eq(pk.pkey[1], 0);
	uint8_t data[SMP_DATA_SIZE];
	pk.pkey[1] = 0x8001;
	mad_pkey_encode(&pk, data);
	ck_assert_int_eq(dr_xfer(PATH(to_s4), MAD_METHOD_SET, MAD_ATTR_PKEY_TABLE, 3u << 16,
				 data, &resp), 0);
	ck_assert_int_eq(mad_pkey_decode(resp.data, &pk), 0);
	ck_assert_uint_eq(pk.pkey[1], 0x8001);
	ck_assert_int_eq(dr_xfer(PATH(to_s4), MAD_METHOD_GET, MAD_ATTR_PKEY_TABLE, 2u << 16,
				 NULL, &resp), 0);
	ck_assert_int_eq(mad_pkey_decode(resp.data, &pk), 0);
	ck_assert_uint_eq(pk.pkey[1], 0);
	ck_assert_int_eq(dr_xfer(PATH(to_h5), MAD_METHOD_GET, MAD_ATTR_PKEY_TABLE, 2, NULL,
				 &resp), -EREMOTEIO);
	ck_assert_uint_eq(resp.status, MAD_STATUS_INVALID_FIELD);
	/* GUIDInfo: a CA port holds GUIDCap (32) entries, the port GUID first and
	 * read-only; a block past them is refused; a switch has port 0's GUID */
	struct mad_guid_block gb;
	struct mad_port_info pi;
	ck_assert_int_eq(dr_xfer(PATH(to_h5), MAD_METHOD_GET, MAD_ATTR_PORT_INFO, 0, NULL,
				 &resp), 0);
	ck_assert_int_eq(mad_port_info_decode(resp.data, &pi), 0);
	ck_assert_uint_eq(pi.guid_cap, 32);
	ck_assert_int_eq(dr_xfer(PATH(to_h5), MAD_METHOD_GET, MAD_ATTR_GUID_INFO, 0, NULL,
				 &resp), 0);
	ck_assert_int_eq(mad_guid_info_decode(resp.data, &gb), 0);
	uint64_t port_guid = gb.guid[0];
	ck_assert_uint_ne(port_guid, 0);
	ck_assert_uint_eq(gb.guid[1], 0);
	gb.guid[0] = 0x1111;	/* ignored */
	gb.guid[7] = 0x0002c90300aa0007ull;
	mad_guid_info_encode(&gb, data);
	ck_assert_int_eq(dr_xfer(PATH(to_h5), MAD_METHOD_SET, MAD_ATTR_GUID_INFO, 0, data,
				 &resp), 0);
	ck_assert_int_eq(mad_guid_info_decode(resp.data, &gb), 0);
	ck_assert_uint_eq(gb.guid[0], port_guid);
	ck_assert_uint_eq(gb.guid[7], 0x0002c90300aa0007ull);
	ck_assert_int_eq(dr_xfer(PATH(to_h5), MAD_METHOD_SET, MAD_ATTR_GUID_INFO, 3, data,
				 &resp), 0);
	ck_assert_int_eq(mad_guid_info_decode(resp.data, &gb), 0);
	ck_assert_uint_eq(gb.guid[0], 0x1111);	/* an alias in another block */
	ck_assert_int_eq(dr_xfer(PATH(to_h5), MAD_METHOD_SET, MAD_ATTR_GUID_INFO, 4, data,
				 &resp), -EREMOTEIO);
	ck_assert_uint_eq(resp.status, MAD_STATUS_INVALID_FIELD);
	ck_assert_int_eq(dr_xfer(PATH(to_s4), MAD_METHOD_GET, MAD_ATTR_GUID_INFO, 1, NULL,
				 &resp), -EREMOTEIO);
	ck_assert_uint_eq(resp.status, MAD_STATUS_INVALID_FIELD);
}
END_TEST

/* MulticastFDBTop: a switch that says so in port 0's CapabilityMask forwards
 * no MLID above it, 0 (none) at power-on; a Set up to its MFT's last MLID
 * takes, beyond it is an invalid field.  Without the capability (quirk)
 * the field reads 0, a Set leaves it, and every entry forwards. */
START_TEST(mft_top)
{
	struct mad_switch_info si;
	struct mad_smp resp;
	struct mad_port_info pi;

	ck_assert_int_eq(sim_get_port_info(fab, S4, 0, &pi), 0);
	ck_assert(pi.cap_mask & MAD_CAP_IS_MCAST_FDB_TOP_SUPPORTED);
	ck_assert_int_eq(sim_get_port_info(fab, H5, 2, &pi), 0);
	ck_assert(!(pi.cap_mask & MAD_CAP_IS_MCAST_FDB_TOP_SUPPORTED));
	uint8_t data[SMP_DATA_SIZE] = { 0 };
	data[1] = 0x0c;	/* MLID 0xc000 -> ports 2 and 3 (position 0) */
	ck_assert_int_eq(dr_xfer(PATH(to_s4), MAD_METHOD_SET, MAD_ATTR_MFT, 0, data, &resp), 0);
	ck_assert_int_eq(sim_get_switch_info(fab, S4, &si), 0);
	ck_assert_uint_eq(si.mft_top, 0);
	ck_assert(!sim_get_mft(fab, S4, 0xc000, 3));	/* above the top: not forwarded */
	si.mft_top = 0xc01f;
	dr_switch_set(PATH(to_s4), &si);
	ck_assert(sim_get_mft(fab, S4, 0xc000, 3));
	ck_assert(!sim_get_mft(fab, S4, 0xc000, 1));
	si.mft_top = 0xc000 + 1024;	/* one past the MFT */
	mad_switch_info_encode(&si, data);
	ck_assert_int_eq(dr_xfer(PATH(to_s4), MAD_METHOD_SET, MAD_ATTR_SWITCH_INFO, 0, data,
				 &resp), -EREMOTEIO);
	ck_assert_uint_eq(resp.status, MAD_STATUS_INVALID_FIELD);
	si.mft_top = 0xbfff;	/* none */
	dr_switch_set(PATH(to_s4), &si);
	ck_assert(!sim_get_mft(fab, S4, 0xc000, 3));
	/* another SM's entry raises the top over it */
	ck_assert_int_eq(sim_set_mft(fab, S4, 0xc3ff, 3, true), 0);
	ck_assert(sim_get_mft(fab, S4, 0xc3ff, 3));
	ck_assert_int_eq(sim_set_mft(fab, S4, 0xc400, 3, true), -EINVAL);
	ck_assert_int_eq(sim_set_mft(fab, H5, 0xc000, 1, true), -EINVAL);
	ck_assert_int_eq(sim_set_mft(fab, S4, 0xc000, 9, true), -EINVAL);
	/* a switch without it */
	ck_assert_int_eq(sim_node_set_quirks(fab, S3, SIM_QUIRK_NO_MFT_TOP), 0);
	ck_assert_int_eq(sim_get_port_info(fab, S3, 0, &pi), 0);
	ck_assert(!(pi.cap_mask & MAD_CAP_IS_MCAST_FDB_TOP_SUPPORTED));
	ck_assert_int_eq(sim_set_mft(fab, S3, 0xc3ff, 2, true), 0);
	ck_assert_int_eq(sim_get_switch_info(fab, S3, &si), 0);
	ck_assert_uint_eq(si.mft_top, 0);
	si.mft_top = 0xbfff;
	dr_switch_set(PATH(to_s3), &si);
	ck_assert(sim_get_mft(fab, S3, 0xc3ff, 2));
}
END_TEST

/* ---- the hosts' IPoIB ---- */

static void edit_sm_lid(struct mad_port_info *pi, uint16_t lid)
{
	pi->sm_lid = lid;
}

static void edit_rereg(struct mad_port_info *pi, uint16_t on)
{
	pi->client_reregister = (uint8_t)on;
}

/* The next MAD for the SM within @ms: a host's IPoIB join from LID 6 (H5),
 * decoded; -ETIMEDOUT when none came. */
static int recv_join(int ms, struct mad_sa *sa, struct mad_sa_mcmember_record *r)
{
	uint8_t buf[MAD_BLOCK_SIZE];
	struct mad_addr from;
	int rc = mad_transport_recv_mad(tr, buf, &from, ms);

	if (rc)
		return rc;
	ck_assert_int_eq(mad_sa_decode(buf, sizeof(buf), sa), 0);
	ck_assert_uint_eq(sa->method, MAD_SA_METHOD_SET);
	ck_assert_uint_eq(sa->attr_id, MAD_SA_ATTR_MCMEMBER_RECORD);
	ck_assert_uint_eq(from.lid, 6);
	ck_assert_uint_eq(from.qpn, 1);
	mad_sa_mcmember_record_decode(sa->data, r);
	return 0;
}

/* The SA's answer to @join, with @status, to the host. */
static void answer_join(const struct mad_sa *join, uint16_t status)
{
	struct mad_sa resp = *join;
	uint8_t buf[MAD_BLOCK_SIZE];

	mad_sa_make_response(&resp, status);
	mad_sa_encode(&resp, buf);
	ck_assert_int_eq(tr->ops->send(tr, buf, &(struct mad_addr){ .lid = 6, .qpn = 1 }), 0);
}

/* A host's IPoIB (kernel ipoib_verbs.c): it joins its partitions' broadcast
 * groups when its port goes ACTIVE, tries again at its pace until answered,
 * and joins again on ClientReregister only; an SM LID change is no event
 * unless the fabric is lenient; a CA without IsClientReregistrationSupported
 * takes the bit as no event and reads 0. */
START_TEST(ipoib_joins_on_active_and_rereg_only)
{
	static const uint8_t bcast[MAD_GID_LEN] = {
		0xff, 0x12, 0x40, 0x1b, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff };
	struct mad_sa_mcmember_record r;
	struct mad_port_info pi;
	struct sim_stats st;
	struct mad_sa sa;

	sim_set_ipoib(fab, 20);
	program_lids();
	ck_assert_int_eq(recv_join(60, &sa, &r), -ETIMEDOUT);	/* not ACTIVE yet */
	dr_port_set(PATH(to_h5), 2, edit_state, MAD_PORT_ARMED, &pi);
	dr_port_set(PATH(to_h5), 2, edit_state, MAD_PORT_ACTIVE, &pi);
	ck_assert(pi.cap_mask & MAD_CAP_IS_CLIENT_REREG_SUPPORTED);
	ck_assert_int_eq(recv_join(200, &sa, &r), 0);
	ck_assert_mem_eq(r.mgid, bcast, MAD_GID_LEN);
	ck_assert_uint_eq(r.port_gid[15], sim_fabric_topo(fab)->nodes[H5].ports[2].guid & 0xff);
	ck_assert_uint_eq(r.join_state, MAD_MC_JOIN_FULL);
	ck_assert_uint_eq(r.pkey, 0xffff);
	ck_assert_uint_eq(sa.comp_mask, MAD_SA_MCMR_MGID | MAD_SA_MCMR_PORT_GID |
					 MAD_SA_MCMR_PKEY | MAD_SA_MCMR_JOIN_STATE);
	/* no answer: sent again at its pace, a new transaction */
	uint64_t tid = sa.tid;
	ck_assert_int_eq(recv_join(200, &sa, &r), 0);
	ck_assert_uint_ne(sa.tid, tid);
	sim_get_stats(fab, &st);
	ck_assert_uint_eq(st.ipoib_joins, 2);
	ck_assert_int_eq(sim_ipoib_joined(fab, H5, 2, 0xffff), 0);
	answer_join(&sa, 0);
	ck_assert_int_eq(sim_ipoib_joined(fab, H5, 2, 0x7fff), 1);
	ck_assert_int_eq(recv_join(100, &sa, &r), -ETIMEDOUT);	/* joined: quiet */
	/* a new SM LID alone: no event (mlx5 raises none) */
	dr_port_set(PATH(to_h5), 2, edit_sm_lid, 2, &pi);
	ck_assert_int_eq(recv_join(100, &sa, &r), -ETIMEDOUT);
	/* ... unless lenient: back to SM LID 1, a join there */
	sim_set_lenient(fab, SIM_LENIENT_SM_CHANGE);
	dr_port_set(PATH(to_h5), 2, edit_sm_lid, 1, &pi);
	ck_assert_int_eq(recv_join(200, &sa, &r), 0);
	answer_join(&sa, 0);
	sim_set_lenient(fab, 0);
	/* ClientReregister: a join again; refused, it is tried again */
	sim_get_stats(fab, &st);
	uint64_t reregs = st.client_reregs;
	dr_port_set(PATH(to_h5), 2, edit_rereg, 1, &pi);
	ck_assert_uint_eq(pi.client_reregister, 1);	/* read back as written */
	sim_get_stats(fab, &st);
	ck_assert_uint_eq(st.client_reregs, reregs + 1);
	ck_assert_int_eq(recv_join(200, &sa, &r), 0);
	ck_assert_int_eq(sim_ipoib_joined(fab, H5, 2, 0xffff), 0);
	answer_join(&sa, MAD_SA_ERR_REQ_INVALID);
	ck_assert_int_eq(recv_join(200, &sa, &r), 0);
	answer_join(&sa, 0);
	ck_assert_int_eq(sim_ipoib_joined(fab, H5, 2, 0xffff), 1);
	dr_port_set(PATH(to_h5), 2, edit_rereg, 0, &pi);	/* a Set without it: nothing */
	ck_assert_uint_eq(pi.client_reregister, 0);
	ck_assert_int_eq(recv_join(100, &sa, &r), -ETIMEDOUT);
	/* a CA that does not support it */
	ck_assert_int_eq(sim_node_set_quirks(fab, H5, SIM_QUIRK_NO_CLIENT_REREG), 0);
	dr_port_set(PATH(to_h5), 2, edit_rereg, 1, &pi);
	ck_assert(!(pi.cap_mask & MAD_CAP_IS_CLIENT_REREG_SUPPORTED));
	ck_assert_uint_eq(pi.client_reregister, 0);
	ck_assert_int_eq(recv_join(100, &sa, &r), -ETIMEDOUT);
	sim_get_stats(fab, &st);
	ck_assert_uint_eq(st.client_reregs, reregs + 1);
	ck_assert_uint_eq(st.ipoib_joined, 3);
	ck_assert_int_eq(sim_ipoib_joined(fab, S4, 0, 0xffff), -EINVAL);
}
END_TEST

/* SLtoVLMappingTable (IBA 14.2.5.8): all SLs on VL 0 until set; a switch holds
 * one table per (input, output) port pair, a CA one per port, whatever the
 * modifier says. */
START_TEST(sl2vl_tables)
{
	struct mad_smp resp;
	struct mad_sl2vl t, want;
	struct sim_stats st;
	uint8_t data[SMP_DATA_SIZE];

	ck_assert_int_eq(dr_xfer(PATH(to_s4), MAD_METHOD_GET, MAD_ATTR_SL2VL_TABLE,
				 MAD_SL2VL_MOD(1, 3), NULL, &resp), 0);
	ck_assert_int_eq(mad_sl2vl_decode(resp.data, &t), 0);
	for (unsigned sl = 0; sl < MAD_NUM_SL; sl++)
		ck_assert_uint_eq(t.vl[sl], 0);
	for (unsigned sl = 0; sl < MAD_NUM_SL; sl++)
		want.vl[sl] = (uint8_t)(sl % 8);
	mad_sl2vl_encode(&want, data);
	ck_assert_int_eq(dr_xfer(PATH(to_s4), MAD_METHOD_SET, MAD_ATTR_SL2VL_TABLE,
				 MAD_SL2VL_MOD(1, 3), data, &resp), 0);
	ck_assert_mem_eq(resp.data, data, SMP_DATA_SIZE);
	ck_assert_int_eq(sim_get_sl2vl(fab, S4, 1, 3, &t), 0);
	ck_assert_mem_eq(&t, &want, sizeof(t));
	/* the other direction and the other pairs keep the default */
	ck_assert_int_eq(sim_get_sl2vl(fab, S4, 3, 1, &t), 0);
	ck_assert_uint_eq(t.vl[7], 0);
	ck_assert_int_eq(sim_get_sl2vl(fab, S4, 1, 2, &t), 0);
	ck_assert_uint_eq(t.vl[7], 0);
	ck_assert_int_eq(dr_xfer(PATH(to_s4), MAD_METHOD_GET, MAD_ATTR_SL2VL_TABLE,
				 MAD_SL2VL_MOD(3, 1), NULL, &resp), 0);
	ck_assert_int_eq(mad_sl2vl_decode(resp.data, &t), 0);
	ck_assert_uint_eq(t.vl[7], 0);
	/* ports beyond the switch's, or reserved modifier bits 31:18, are invalid */
	ck_assert_int_eq(dr_xfer(PATH(to_s4), MAD_METHOD_GET, MAD_ATTR_SL2VL_TABLE,
				 MAD_SL2VL_MOD(5, 1), NULL, &resp), -EREMOTEIO);
	ck_assert_uint_eq(resp.status, MAD_STATUS_INVALID_FIELD);
	ck_assert_int_eq(dr_xfer(PATH(to_s4), MAD_METHOD_SET, MAD_ATTR_SL2VL_TABLE,
				 1u << 18 | MAD_SL2VL_MOD(1, 3), data, &resp), -EREMOTEIO);
	ck_assert_uint_eq(resp.status, MAD_STATUS_INVALID_FIELD);
	/* a CA: the table of the port the SMP came in on, the modifier ignored */
	ck_assert_int_eq(dr_xfer(PATH(to_h5), MAD_METHOD_SET, MAD_ATTR_SL2VL_TABLE,
				 MAD_SL2VL_MOD(1, 1), data, &resp), 0);
	ck_assert_int_eq(sim_get_sl2vl(fab, H5, 0, 2, &t), 0);
	ck_assert_mem_eq(&t, &want, sizeof(t));
	ck_assert_int_eq(sim_get_sl2vl(fab, H5, 0, 1, &t), 0);
	ck_assert_uint_eq(t.vl[7], 0);
	ck_assert_int_eq(sim_get_sl2vl(fab, H5, 0, 3, &t), -EINVAL);
	ck_assert_int_eq(sim_get_sl2vl(fab, S4, 5, 1, &t), -EINVAL);
	sim_get_stats(fab, &st);
	ck_assert_uint_eq(st.sl2vl_sets, 2);
	ck_assert_uint_eq(st.sl2vl_gets, 2);
}
END_TEST

/* Whether every SLtoVLMappingTable of switch S4 (ports 0-4) is @t, or, with
 * @out_only non-zero, every table into that output port is @t and the others
 * are @other. */
static void assert_s4_tables(const struct mad_sl2vl *t, unsigned out_only,
			     const struct mad_sl2vl *other)
{
	struct mad_sl2vl got;

	for (uint8_t in = 0; in <= 4; in++)
		for (uint8_t out = 0; out <= 4; out++) {
			ck_assert_int_eq(sim_get_sl2vl(fab, S4, in, out, &got), 0);
			const struct mad_sl2vl *want = !out_only || out == out_only ? t : other;
			ck_assert_msg(!memcmp(&got, want, sizeof(got)), "S4 %u -> %u: SL 7 on VL %u",
				      in, out, got.vl[7]);
		}
}

/* Optimized programming (IBA 1.2.1 14.2.5.8): a switch that says so in
 * SwitchInfo takes a Set for all input ports (modifier bit 17) and all output
 * ports (bit 16) and writes every pair, port 0 included; a Get must name one
 * table.  A switch without it (SIM_QUIRK_NO_OPT_SL2VL, ibsim's kind) clears
 * the SwitchInfo bit and refuses those Sets: invalid field, nothing written. */
START_TEST(sl2vl_optimized_programming)
{
	struct mad_sl2vl a, b, zero;
	struct mad_switch_info si;
	struct mad_smp resp;
	struct sim_stats st;
	uint8_t da[SMP_DATA_SIZE], db[SMP_DATA_SIZE];

	memset(&zero, 0, sizeof(zero));
	for (unsigned sl = 0; sl < MAD_NUM_SL; sl++) {
		a.vl[sl] = (uint8_t)(sl % 4);
		b.vl[sl] = (uint8_t)(sl % 8);
	}
	mad_sl2vl_encode(&a, da);
	mad_sl2vl_encode(&b, db);
	ck_assert_int_eq(dr_xfer(PATH(to_s4), MAD_METHOD_GET, MAD_ATTR_SWITCH_INFO, 0, NULL,
				 &resp), 0);
	ck_assert_int_eq(mad_switch_info_decode(resp.data, &si), 0);
	ck_assert(mad_switch_opt_sl2vl(&si));

	/* all inputs to output 3 */
	ck_assert_int_eq(dr_xfer(PATH(to_s4), MAD_METHOD_SET, MAD_ATTR_SL2VL_TABLE,
				 MAD_SL2VL_MOD_ALL_IN_TO(3), da, &resp), 0);
	ck_assert_mem_eq(resp.data, da, SMP_DATA_SIZE);
	assert_s4_tables(&a, 3, &zero);
	/* all inputs to all outputs; the port fields are ignored then */
	ck_assert_int_eq(dr_xfer(PATH(to_s4), MAD_METHOD_SET, MAD_ATTR_SL2VL_TABLE,
				 MAD_SL2VL_MOD_ALL_PAIRS | MAD_SL2VL_MOD(9, 9), db, &resp), 0);
	ck_assert_mem_eq(resp.data, db, SMP_DATA_SIZE);
	assert_s4_tables(&b, 0, NULL);
	/* one input to all outputs */
	ck_assert_int_eq(dr_xfer(PATH(to_s4), MAD_METHOD_SET, MAD_ATTR_SL2VL_TABLE,
				 MAD_SL2VL_MOD_ALL_OUT | MAD_SL2VL_MOD(2, 0), da, &resp), 0);
	for (uint8_t out = 0; out <= 4; out++) {
		struct mad_sl2vl got;
		ck_assert_int_eq(sim_get_sl2vl(fab, S4, 2, out, &got), 0);
		ck_assert_mem_eq(&got, &a, sizeof(got));
		ck_assert_int_eq(sim_get_sl2vl(fab, S4, 1, out, &got), 0);
		ck_assert_mem_eq(&got, &b, sizeof(got));
	}
	ck_assert_int_eq(dr_xfer(PATH(to_s4), MAD_METHOD_SET, MAD_ATTR_SL2VL_TABLE,
				 MAD_SL2VL_MOD_ALL_PAIRS, db, &resp), 0);
	/* a Get names one table */
	ck_assert_int_eq(dr_xfer(PATH(to_s4), MAD_METHOD_GET, MAD_ATTR_SL2VL_TABLE,
				 MAD_SL2VL_MOD_ALL_IN_TO(1), NULL, &resp), -EREMOTEIO);
	ck_assert_uint_eq(resp.status, MAD_STATUS_INVALID_FIELD);
	sim_get_stats(fab, &st);
	ck_assert_uint_eq(st.sl2vl_sets, 4);
	ck_assert_uint_eq(st.sl2vl_gets, 0);

	/* a switch without it: the bit is clear and the Sets are refused */
	ck_assert_int_eq(sim_node_set_quirks(fab, S4, SIM_QUIRK_NO_OPT_SL2VL), 0);
	ck_assert_int_eq(dr_xfer(PATH(to_s4), MAD_METHOD_GET, MAD_ATTR_SWITCH_INFO, 0, NULL,
				 &resp), 0);
	ck_assert_int_eq(mad_switch_info_decode(resp.data, &si), 0);
	ck_assert(!mad_switch_opt_sl2vl(&si));
	static const uint32_t mods[] = {
		MAD_SL2VL_MOD_ALL_PAIRS, MAD_SL2VL_MOD_ALL_IN_TO(3),
		MAD_SL2VL_MOD_ALL_OUT | MAD_SL2VL_MOD(1, 0),
	};
	for (size_t i = 0; i < sizeof(mods) / sizeof(mods[0]); i++) {
		ck_assert_int_eq(dr_xfer(PATH(to_s4), MAD_METHOD_SET, MAD_ATTR_SL2VL_TABLE,
					 mods[i], da, &resp), -EREMOTEIO);
		ck_assert_uint_eq(resp.status, MAD_STATUS_INVALID_FIELD);
	}
	assert_s4_tables(&b, 0, NULL);
	sim_get_stats(fab, &st);
	ck_assert_uint_eq(st.sl2vl_opt_refused, 3);
	/* one pair at a time still works */
	ck_assert_int_eq(dr_xfer(PATH(to_s4), MAD_METHOD_SET, MAD_ATTR_SL2VL_TABLE,
				 MAD_SL2VL_MOD(1, 3), da, &resp), 0);
	struct mad_sl2vl got;
	ck_assert_int_eq(sim_get_sl2vl(fab, S4, 1, 3, &got), 0);
	ck_assert_mem_eq(&got, &a, sizeof(got));
	ck_assert_int_eq(sim_get_sl2vl(fab, S4, 2, 3, &got), 0);
	ck_assert_mem_eq(&got, &b, sizeof(got));
	/* opt-sl2vl=1 gives it back to every switch */
	sim_set_opt_sl2vl(fab, true);
	ck_assert_int_eq(sim_get_switch_info(fab, S4, &si), 0);
	ck_assert(mad_switch_opt_sl2vl(&si));
	sim_set_opt_sl2vl(fab, false);
	ck_assert_int_eq(sim_get_switch_info(fab, S4, &si), 0);
	ck_assert(!mad_switch_opt_sl2vl(&si));
}
END_TEST

/* A fabric built from a struct topo is a copy: it serves the same answers and
 * outlives the topo it came from. */
START_TEST(fabric_from_topo)
{
	struct sim_fabric *copy;
	struct mad_transport *t2;
	struct mad_node_info ni;

	ck_assert_int_eq(sim_fabric_from_topo(sim_fabric_topo(fab), &copy), 0);
	mad_transport_close(tr);
	sim_fabric_free(fab);
	fab = copy;
	ck_assert_int_eq(sim_transport_new(fab, &t2), 0);
	tr = t2;
	dr_node_info(PATH(to_h5), &ni);
	ck_assert_uint_eq(ni.node_guid, 0x100002);
	ck_assert_uint_eq(ni.local_port, 2);
	ck_assert_str_eq(sim_fabric_topo(fab)->nodes[S4].name, "S4");
	ck_assert_uint_eq(topo_find_guid(sim_fabric_topo(fab), 0x200003), S4);
}
END_TEST

static void open_expect(const char *opts, int rc, const char *msg)
{
	char spec[4200], err[512] = "";
	struct mad_transport *t = NULL;

	snprintf(spec, sizeof(spec), "sim:%s%s", opts[0] == '/' ? "" : chain_path(), opts);
	ck_assert_int_eq(mad_transport_open(spec, &t, err, sizeof(err)), rc);
	ck_assert_msg(strstr(err, msg) != NULL, "'%s' not in '%s'", msg, err);
}

START_TEST(transport_spec)
{
	char spec[4200], err[512] = "";
	struct mad_transport *t;
	struct mad_local_port lp;

	snprintf(spec, sizeof(spec), "sim:%s,host=H5,latency=0,seed=3", chain_path());
	ck_assert_msg(mad_transport_open(spec, &t, err, sizeof(err)) == 0, "%s", err);
	ck_assert_ptr_nonnull(sim_transport_fabric(t));
	ck_assert_int_eq(t->ops->local_port(t, &lp), 0);
	ck_assert_uint_eq(lp.port_num, 2);
	ck_assert_uint_eq(lp.port_guid, 0x100004);
	ck_assert_uint_eq(lp.state, MAD_PORT_INIT);
	mad_transport_close(t);
	snprintf(spec, sizeof(spec), "sim:%s,ipoib=1000,lenient=7", chain_path());
	ck_assert_msg(mad_transport_open(spec, &t, err, sizeof(err)) == 0, "%s", err);
	mad_transport_close(t);
	snprintf(spec, sizeof(spec), "sim:%s,host=S2", chain_path());
	ck_assert_msg(mad_transport_open(spec, &t, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(t->ops->local_port(t, &lp), 0);
	ck_assert_uint_eq(lp.port_num, 0);
	ck_assert_uint_eq(lp.port_guid, 0x200001);
	ck_assert_uint_eq(lp.state, MAD_PORT_ACTIVE);
	mad_transport_close(t);
	snprintf(spec, sizeof(spec), "sim:%s,host=H5:1", chain_path());
	ck_assert_msg(mad_transport_open(spec, &t, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(t->ops->local_port(t, &lp), 0);
	ck_assert_uint_eq(lp.port_num, 1);
	ck_assert_uint_eq(lp.state, MAD_PORT_DOWN);
	mad_transport_close(t);

	ck_assert_int_eq(mad_transport_open("sim:", &t, err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "sim: no topology file (expected sim:FILE[,host=NODE[:PORT]]"
			      "[,events=FILE][,latency=USEC][,seed=N])");
	/* a node or port named that is not there: as umad's (ibsmd stops) */
	open_expect(",host=Nobody", -ENODEV, "sim: host=Nobody: no such node");
	open_expect(",host=S2:3", -ENODEV,
		    "sim: host=S2:3: no such port (a switch attaches at port 0)");
	open_expect(",host=H5:x", -EINVAL, "sim: bad port in host=H5:x");
	open_expect(",bogus=1", -EINVAL, "sim: unknown option 'bogus'");
	open_expect(",latency=soon", -EINVAL, "sim: bad number in latency=soon");
	open_expect(",ipoib=60001", -EINVAL, "sim: bad number in ipoib=60001");
	open_expect(",ipoib=-1", -EINVAL, "sim: bad number in ipoib=-1");
	open_expect(",lenient=8", -EINVAL, "sim: bad number in lenient=8");
	open_expect(",events=/nonexistent/ev", -ENOENT, "/nonexistent/ev:0: cannot open");
	open_expect("/nonexistent/net", -ENOENT,
		    "/nonexistent/net:0: cannot open: No such file or directory");
}
END_TEST

static Suite *make_suite(void)
{
	Suite *s = suite_create("mad_sim");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, dr_node_info_five_hops);
	tcase_add_test(tc, dr_zero_hops_and_switch_attach);
	tcase_add_test(tc, dr_bad_hop_pointer_discarded);
	tcase_add_test(tc, dr_lost_on_bad_ports);
	tcase_add_test(tc, lid_routed_through_lfts);
	tcase_add_test(tc, port_state_machine);
	tcase_add_test(tc, armed_goes_active_by_itself);
	tcase_add_test(tc, smp_buffer_overflow_drops);
	tcase_add_test(tc, sm_info_to_sm_holds_its_port_buffer);
	tcase_add_test(tc, mkey_protection);
	tcase_add_test(tc, link_down_trap_128);
	tcase_add_test(tc, loss_rate_with_seed);
	tcase_add_test(tc, dead_node);
	tcase_add_test(tc, latency_holds_answers);
	tcase_add_test(tc, event_file_applied_in_time);
	tcase_add_test(tc, bad_event_files);
	tcase_add_test(tc, attributes);
	tcase_add_test(tc, mft_top);
	tcase_add_test(tc, ipoib_joins_on_active_and_rereg_only);
	tcase_add_test(tc, sl2vl_tables);
	tcase_add_test(tc, sl2vl_optimized_programming);
	tcase_add_test(tc, transport_spec);
	tcase_add_test(tc, fabric_from_topo);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(make_suite)
