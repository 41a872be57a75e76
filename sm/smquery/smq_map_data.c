// SPDX-License-Identifier: MIT
/*
 * smq_map_data.c - the stored fabric as the data of the map page: one JSON
 * document of arrays (no member names repeated 80,000 times), read by the
 * page's script.
 *
 *	{"version":2, "sweep":"<last heavy sweep's time>", "top":<top LID>,
 *	 "value":"load %"|"errors/s", "scale":"absolute"|"relative",
 *	 "rates":["4xQDR", ...],
 *	 "sw":[[guid, lid, description, tier, nports], ...],
 *	 "ca":[[guid, description, type, [[port, port guid, lid, lmc,
 *	        switch, switch port, flags, rate(, value)], ...]], ...],
 *	 "ln":[[switch a, port a, switch b, port b, flags, rate(, value)], ...],
 *	 "pb":[[kind, text, [[ref, port], ...], since_ms], ...],	(smq_map_problems.c)
 *	 "lft":["<packed LFT, base64>" | "", ...],
 *	 "lft_omitted":"why"}			(only when the LFTs are left out)
 *
 * Switches come in drawing order: tier by tier from the top, the switches no
 * leaf reaches (tier -1) first; leaves by description (natural order: "L2"
 * before "L10") and GUID; each tier above by the mean position of its
 * neighbours one tier down, so that a pod's switches stand together.  "sw"
 * and "ln" name switches by that position, rates by their index in "rates";
 * "type" is "ca" or "router".  A CA lists its ports that have a LID or a
 * cable; "switch" is -1 where the port is not cabled to a switch.  flags:
 * SMQ_MAP_DOWN, SMQ_MAP_DEGRADED, SMQ_MAP_ISOLATED (4: a link the isolation
 * policy keeps out of routing, table isolated_links).  A link's value,
 * given when the store holds a counter pass (then a member "value" names
 * it), is from its busier end in the newest pass: by data ("load %"), the
 * port's PortXmitData over the interval in percent of the link's data rate;
 * by errors ("errors/s"), its errors (as `smquery counters --by errors`
 * counts them) per second; a number >= 0 with two decimals (a port with no
 * row in that pass, or only a first sample, counts 0).  The page colours
 * links green to red by it: by "scale" at first, absolute (load: 100% of the
 * link's rate is red; errors: a log scale, 1,000/s red) or relative to the
 * largest value.  "lft" holds each switch's stored LFT,
 * LIDs 0 .. top, packed (smq_map_lz.c), "" when none is stored; past
 * SMQ_MAP_LFT_BUDGET packed bytes all of them are left out and
 * "lft_omitted" says so.
 */
#define _GNU_SOURCE	/* strverscmp */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "mad/model/topo_rate.h"
#include "mad/mad_attr.h"
#include "sm/smquery/smq_map.h"

#define SMQ_MAP_MAX_RATES 128

struct smq_map {
	struct smq *q;
	const struct topo *t;
	uint16_t *tier, height;
	uint32_t nsw;
	uint32_t *sw;		/* switches in drawing order: node indexes */
	uint32_t *pos;		/* node index -> its place in sw[] (switches) */
	uint16_t rates[SMQ_MAP_MAX_RATES];	/* width << 8 | speed, by index */
	unsigned nrates;
	enum smq_map_by by;
	double *load;		/* per port (off[node] + port): the value, or NULL */
	uint32_t *off;
};

/* A switch being placed in its tier. */
struct smq_map_key {
	uint32_t node;
	double bary;		/* mean place of its neighbours one tier down */
	const struct topo_node *n;
};

static int smq_map_key_cmp(const void *a, const void *b)
{
	const struct smq_map_key *x = a, *y = b;

	if (x->bary != y->bary)
		return x->bary < y->bary ? -1 : 1;
	int c = strverscmp(x->n->desc, y->n->desc);
	if (c)
		return c;
	return x->n->guid < y->n->guid ? -1 : x->n->guid > y->n->guid;
}

/* Append the switches of tier @tier to m->sw, ordered. */
static void smq_map_place_tier(struct smq_map *m, uint16_t tier, struct smq_map_key *keys)
{
	const struct topo *t = m->t;
	uint32_t k = 0;

	for (uint32_t i = 0; i < t->n; i++) {
		if (t->nodes[i].type != MAD_NODE_SWITCH || m->tier[i] != tier)
			continue;
		double sum = 0;
		unsigned cnt = 0;
		for (unsigned p = 1; tier != SMQ_NO_TIER && tier > 0 && p <= t->nodes[i].nports;
		     p++) {
			uint32_t peer = t->nodes[i].ports[p].peer;
			if (peer != TOPO_NONE && t->nodes[peer].type == MAD_NODE_SWITCH &&
			    m->tier[peer] == tier - 1) {
				sum += m->pos[peer];
				cnt++;
			}
		}
		keys[k++] = (struct smq_map_key){ i, cnt ? sum / cnt : 0, &t->nodes[i] };
	}
	qsort(keys, k, sizeof(*keys), smq_map_key_cmp);
	for (uint32_t j = 0; j < k; j++) {
		m->pos[keys[j].node] = m->nsw;
		m->sw[m->nsw++] = keys[j].node;
	}
}

/*
 * Place every switch.  Tiers are ordered bottom up (each needs the places
 * of the one below), then m->sw is turned around tier by tier so that the
 * top tier comes first, the unranked ones before it.
 */
static int smq_map_place(struct smq_map *m)
{
	const struct topo *t = m->t;
	struct smq_map_key *keys = malloc(((size_t)t->n + 1) * sizeof(*keys));
	uint32_t *order = malloc(((size_t)t->n + 1) * sizeof(*order));
	uint32_t *start = calloc((size_t)m->height + 3, sizeof(*start));

	if (!keys || !order || !start) {
		free(keys);
		free(order);
		free(start);
		return -ENOMEM;
	}
	for (unsigned h = 0; h <= m->height; h++) {
		start[h] = m->nsw;
		smq_map_place_tier(m, (uint16_t)h, keys);
	}
	start[m->height + 1] = m->nsw;
	smq_map_place_tier(m, SMQ_NO_TIER, keys);
	uint32_t k = 0;
	for (uint32_t i = start[m->height + 1]; i < m->nsw; i++)
		order[k++] = m->sw[i];
	for (unsigned h = m->height + 1; h-- > 0;)
		for (uint32_t i = start[h]; i < start[h + 1]; i++)
			order[k++] = m->sw[i];
	for (uint32_t i = 0; i < m->nsw; i++) {
		m->sw[i] = order[i];
		m->pos[order[i]] = i;
	}
	free(keys);
	free(order);
	free(start);
	return 0;
}

static unsigned smq_map_rate(struct smq_map *m, const struct topo_port *p)
{
	uint16_t code = (uint16_t)(p->width << 8 | p->speed);

	for (unsigned i = 0; i < m->nrates; i++)
		if (m->rates[i] == code)
			return i;
	if (m->nrates == SMQ_MAP_MAX_RATES)	/* 5 widths x 8 speeds: never */
		return 0;
	m->rates[m->nrates] = code;
	return m->nrates++;
}

static unsigned smq_map_flags(const struct topo *t, const struct topo_port *p)
{
	const struct topo_port *back = &t->nodes[p->peer].ports[p->peer_port];
	unsigned f = 0;

	if (p->state < MAD_PORT_ACTIVE || back->state < MAD_PORT_ACTIVE)
		f |= SMQ_MAP_DOWN;
	if (p->degraded || back->degraded)
		f |= SMQ_MAP_DEGRADED;
	if (p->isolated || back->isolated)
		f |= SMQ_MAP_ISOLATED;
	return f;
}

static void smq_map_switches(struct smq_map *m)
{
	struct smq *q = m->q;

	smq_json_open(q, "sw", '[');
	for (uint32_t i = 0; i < m->nsw; i++) {
		const struct topo_node *n = &m->t->nodes[m->sw[i]];

		smq_json_open(q, NULL, '[');
		smq_json_guid(q, NULL, n->guid);
		smq_json_int(q, NULL, n->ports[0].lid);
		smq_json_str(q, NULL, n->desc);
		smq_json_int(q, NULL, m->tier[m->sw[i]] == SMQ_NO_TIER ? -1 : m->tier[m->sw[i]]);
		smq_json_int(q, NULL, n->nports);
		smq_json_close(q, ']');
	}
	smq_json_close(q, ']');
}

/* The newest counter pass's transmit loads, per port; none without a pass. */
static int smq_map_any_row(void *arg, const struct db_port_row *r)
{
	(void)r;
	*(bool *)arg = true;
	return 1;
}

static int smq_map_load_row(void *arg, const struct db_port_row *r)
{
	struct smq_map *m = arg;
	uint32_t n = topo_find_guid(m->t, r->guid);

	if (n == TOPO_NONE || !r->port || r->port > m->t->nodes[n].nports || !r->interval_ms)
		return 0;	/* a switch's port 0 (enhanced) is no link of the map */
	const struct topo_port *p = &m->t->nodes[n].ports[r->port];
	uint32_t mbps = mad_rate_mbps(p->width, p->speed);
	if (m->by == SMQ_MAP_BY_ERRORS)
		m->load[m->off[n] + r->port] = (double)smq_errors(&r->c) * 1000 / r->interval_ms;
	/* words x 32 bits / (interval_ms / 1000) / (mbps x 1e6) x 100 */
	else if (mbps)
		m->load[m->off[n] + r->port] = (double)r->c.xmit_data * 3.2 /
					       ((double)r->interval_ms * mbps);
	return 0;
}

static int smq_map_loads(struct smq_map *m)
{
	size_t nports = 0;
	bool any = false;

	if (!(m->off = malloc(((size_t)m->t->n + 1) * sizeof(*m->off))))
		return -ENOMEM;
	for (uint32_t i = 0; i < m->t->n; i++) {
		m->off[i] = (uint32_t)nports;
		nports += m->t->nodes[i].nports + 1u;
	}
	if (!(m->load = calloc(nports + 1, sizeof(*m->load))))
		return -ENOMEM;
	int rc = db_counters_latest_each(m->q->db, smq_map_any_row, &any);
	if (rc != 0 && rc != 1)
		return -EIO;
	if (!any) {
		free(m->load);
		m->load = NULL;	/* no pass: no values */
		return 0;
	}
	return db_counters_latest_each(m->q->db, smq_map_load_row, m) ? -EIO : 0;
}

/* Write the value of the link at port @p of node @n (its busier end). */
static void smq_map_value(struct smq_map *m, uint32_t n, unsigned p)
{
	const struct topo_port *tp = &m->t->nodes[n].ports[p];
	double v;

	if (!m->load)
		return;
	v = m->load[m->off[n] + p];
	if (tp->peer != TOPO_NONE && m->load[m->off[tp->peer] + tp->peer_port] > v)
		v = m->load[m->off[tp->peer] + tp->peer_port];
	smq_json_member(m->q, NULL);
	fprintf(m->q->out, "%.2f", v);
}

static void smq_map_ca_port(struct smq_map *m, uint32_t node, const struct topo_port *p,
			    unsigned pn)
{
	struct smq *q = m->q;
	bool on_switch = p->peer != TOPO_NONE && m->t->nodes[p->peer].type == MAD_NODE_SWITCH;

	smq_json_open(q, NULL, '[');
	smq_json_int(q, NULL, pn);
	smq_json_guid(q, NULL, p->guid);
	smq_json_int(q, NULL, p->lid);
	smq_json_int(q, NULL, p->lmc);
	smq_json_int(q, NULL, on_switch ? (int64_t)m->pos[p->peer] : -1);
	smq_json_int(q, NULL, on_switch ? p->peer_port : 0);
	smq_json_int(q, NULL, p->peer != TOPO_NONE ? smq_map_flags(m->t, p) : 0);
	smq_json_int(q, NULL, smq_map_rate(m, p));
	smq_map_value(m, node, pn);
	smq_json_close(q, ']');
}

static void smq_map_cas(struct smq_map *m)
{
	const struct topo *t = m->t;
	struct smq *q = m->q;

	smq_json_open(q, "ca", '[');
	for (uint32_t i = 0; i < t->n; i++) {
		const struct topo_node *n = &t->nodes[i];

		if (n->type == MAD_NODE_SWITCH)
			continue;
		smq_json_open(q, NULL, '[');
		smq_json_guid(q, NULL, n->guid);
		smq_json_str(q, NULL, n->desc);
		smq_json_str(q, NULL, smq_type_key(n->type));
		smq_json_open(q, NULL, '[');
		for (unsigned p = 1; p <= n->nports; p++)
			if (n->ports[p].lid || n->ports[p].peer != TOPO_NONE)
				smq_map_ca_port(m, i, &n->ports[p], p);
		smq_json_close(q, ']');
		smq_json_close(q, ']');
	}
	smq_json_close(q, ']');
}

static void smq_map_links(struct smq_map *m)
{
	const struct topo *t = m->t;
	struct smq *q = m->q;

	smq_json_open(q, "ln", '[');
	for (uint32_t i = 0; i < m->nsw; i++) {
		const struct topo_node *n = &t->nodes[m->sw[i]];

		for (unsigned p = 1; p <= n->nports; p++) {
			const struct topo_port *port = &n->ports[p];

			if (port->peer == TOPO_NONE || t->nodes[port->peer].type != MAD_NODE_SWITCH ||
			    m->pos[port->peer] < i || (m->pos[port->peer] == i && port->peer_port < p))
				continue;
			smq_json_open(q, NULL, '[');
			smq_json_int(q, NULL, i);
			smq_json_int(q, NULL, p);
			smq_json_int(q, NULL, m->pos[port->peer]);
			smq_json_int(q, NULL, port->peer_port);
			smq_json_int(q, NULL, smq_map_flags(t, port));
			smq_json_int(q, NULL, smq_map_rate(m, port));
			smq_map_value(m, m->sw[i], p);
			smq_json_close(q, ']');
		}
	}
	smq_json_close(q, ']');
}

static void smq_map_rates(struct smq_map *m)
{
	smq_json_open(m->q, "rates", '[');
	for (unsigned i = 0; i < m->nrates; i++) {
		char name[32];

		snprintf(name, sizeof(name), "%s%s",
			 mad_rate_width_name((uint8_t)(m->rates[i] >> 8), MAD_RATE_IBND),
			 mad_rate_speed_name((uint8_t)m->rates[i], MAD_RATE_IBND));
		smq_json_str(m->q, NULL, name);
	}
	smq_json_close(m->q, ']');
}

/* Every switch's stored LFT, packed, into @packed[] / @len[]; total in *@total. */
static int smq_map_pack_lfts(struct smq_map *m, const struct smq_lids *l, uint8_t **packed,
			     size_t *len, size_t *total)
{
	*total = 0;
	for (uint32_t i = 0; i < m->nsw; i++) {
		int found;
		uint8_t *lft = smq_lft_load(m->q, m->sw[i], &found);

		if (!lft)
			return -EIO;
		int err = found ? smq_lz_pack(lft, (size_t)l->top + 1, &packed[i], &len[i]) : 0;
		free(lft);
		if (err)
			return smq_fail("out of memory"), err;
		*total += len[i];
	}
	return 0;
}

static int smq_map_lfts(struct smq_map *m)
{
	const struct smq_lids *l = smq_lids(m->q);
	uint8_t **packed = calloc((size_t)m->nsw + 1, sizeof(*packed));
	size_t *len = calloc((size_t)m->nsw + 1, sizeof(*len));
	size_t total = 0;
	int err = !l ? -EIO : !packed || !len ? -ENOMEM : 0;

	if (err == -ENOMEM)
		smq_fail("out of memory");
	if (!err)
		err = smq_map_pack_lfts(m, l, packed, len, &total);
	if (!err) {
		bool keep = total <= SMQ_MAP_LFT_BUDGET;

		smq_json_int(m->q, "top", l->top);
		smq_json_open(m->q, "lft", '[');
		for (uint32_t i = 0; i < m->nsw; i++) {
			smq_json_member(m->q, NULL);
			fputc('"', m->q->out);
			if (keep)
				smq_base64(m->q->out, packed[i], len[i]);
			fputc('"', m->q->out);
		}
		smq_json_close(m->q, ']');
		if (!keep) {
			char why[128];

			snprintf(why, sizeof(why), "the LFTs pack to %zu bytes, more than the %u "
				 "a page carries", total, SMQ_MAP_LFT_BUDGET);
			fprintf(stderr, "smquery: map: %s: no route mode\n", why);
			smq_json_str(m->q, "lft_omitted", why);
		}
	}
	for (uint32_t i = 0; packed && i < m->nsw; i++)
		free(packed[i]);
	free(packed);
	free(len);
	return err;
}

static int smq_map_last_sweep(void *arg, const struct db_sweep *sw)
{
	if (!strcmp(sw->kind, "heavy"))
		*(int64_t *)arg = sw->started_ms;
	return 0;
}

/* How the page names each node: a switch by its place in "sw", a CA or
 * router by -1 - its index in "ca" (the order smq_map_cas() writes them). */
static int64_t *smq_map_refs(const struct smq_map *m)
{
	int64_t *ref = malloc(((size_t)m->t->n + 1) * sizeof(*ref));
	int64_t ca = 0;

	for (uint32_t i = 0; ref && i < m->t->n; i++)
		ref[i] = m->t->nodes[i].type == MAD_NODE_SWITCH ? (int64_t)m->pos[i] : -1 - ca++;
	return ref;
}

int smq_map_data(struct smq *q, enum smq_map_by by, enum smq_map_scale scale)
{
	const struct topo *t = smq_topo(q);
	struct smq_map m = { .q = q, .t = t, .by = by };
	int64_t ms = 0;
	char when[32];

	if (!t)
		return SMQ_FAIL;
	m.tier = malloc(((size_t)t->n + 1) * sizeof(*m.tier));
	m.sw = malloc(((size_t)t->n + 1) * sizeof(*m.sw));
	m.pos = malloc(((size_t)t->n + 1) * sizeof(*m.pos));
	int err = !m.tier || !m.sw || !m.pos ? -ENOMEM : smq_tiers(t, m.tier, &m.height);
	if (!err)
		err = smq_map_place(&m);
	if (!err)
		err = smq_map_loads(&m);
	if (err) {
		free(m.tier);
		free(m.sw);
		free(m.pos);
		free(m.off);
		free(m.load);
		return err == -EIO ? smq_fail("reading the port counters: %s", db_errmsg(q->db))
				   : smq_fail("out of memory");
	}
	db_sweeps_each(q->db, smq_map_last_sweep, &ms);
	int64_t *ref = smq_map_refs(&m);
	q->html = true;
	smq_json_open(q, NULL, '{');
	smq_json_int(q, "version", 2);
	smq_json_str(q, "sweep", smq_time(when, sizeof(when), ms));
	if (m.load)
		smq_json_str(q, "value", by == SMQ_MAP_BY_ERRORS ? "errors/s" : "load %");
	smq_json_str(q, "scale", scale == SMQ_MAP_SCALE_RELATIVE ? "relative" : "absolute");
	smq_map_switches(&m);
	smq_map_cas(&m);
	smq_map_links(&m);
	err = ref ? smq_map_problems(q, t, ref) : -ENOMEM;
	if (err)
		smq_fail("%s", err == -ENOMEM ? "out of memory" : db_errmsg(q->db));
	smq_map_rates(&m);
	err = err ? err : smq_map_lfts(&m);
	smq_json_close(q, '}');
	free(ref);
	free(m.tier);
	free(m.sw);
	free(m.pos);
	free(m.off);
	free(m.load);
	return err ? SMQ_FAIL : SMQ_OK;
}
