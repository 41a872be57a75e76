// SPDX-License-Identifier: MIT
/*
 * smq_map_problems.c - the map's problems that the snapshot's links and
 * ports do not carry (those carry their own flags: a port not Active,
 * degraded, isolated): links that went down and are not back, nodes the SM
 * cannot reach, and ports behind which nothing answered (db_lost.c), as the
 * page's "pb" member:
 *
 *	"pb":[[kind, text, [[ref, port], ...], since_ms], ...]
 *
 * kind "down": a link down between two nodes of the snapshot (two ends; one
 * when the store no longer knows its far end);
 * "lost": a node the SM cannot reach, a node of the snapshot that did not
 * answer the last sweep (one end: itself, port 0) or one gone from it whose
 * links went down (one end per link: the port on the node that is left);
 * "silent": a port behind which nothing answered NodeInfo in the last heavy
 * sweep, whose far end is known to nobody.  ref is a switch's place in "sw",
 * or -1 - a CA's index in "ca".  text names what is broken, for the page's
 * list; since_ms is when a sweep found it (0: unknown).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "sm/smquery/smq_map.h"

/* A node gone from the snapshot whose links went down: one "lost" entry. */
struct lost {
	uint64_t guid;
	char desc[TOPO_DESC_LEN + 1];
	int64_t since_ms;
	size_t n, cap;
	struct { uint32_t node; unsigned port; } *ends;
};

struct problems {
	struct smq *q;
	const struct topo *t;
	const int64_t *ref;
	struct lost *lost;
	size_t nlost, caplost;
	/* the ends written as a down link or a lost node's, for the silent ones */
	struct { uint32_t node; unsigned port; } *seen;
	size_t nseen, capseen;
	int err;
};

static bool grow(void **v, size_t *cap, size_t n, size_t size)
{
	if (n < *cap)
		return true;
	size_t c = *cap ? 2 * *cap : 16;
	void *p = realloc(*v, c * size);
	if (!p)
		return false;
	*v = p;
	*cap = c;
	return true;
}

static void see(struct problems *pb, uint32_t node, unsigned port)
{
	if (!grow((void **)&pb->seen, &pb->capseen, pb->nseen, sizeof(*pb->seen))) {
		pb->err = -ENOMEM;
		return;
	}
	pb->seen[pb->nseen].node = node;
	pb->seen[pb->nseen++].port = port;
}

static bool seen(const struct problems *pb, uint32_t node, unsigned port)
{
	for (size_t i = 0; i < pb->nseen; i++)
		if (pb->seen[i].node == node && pb->seen[i].port == port)
			return true;
	return false;
}

/* Open an entry: [kind, text, [ */
static void entry_open(struct problems *pb, const char *kind, const char *text)
{
	smq_json_open(pb->q, NULL, '[');
	smq_json_str(pb->q, NULL, kind);
	smq_json_str(pb->q, NULL, text);
	smq_json_open(pb->q, NULL, '[');
}

static void entry_end(struct problems *pb, uint32_t node, unsigned port)
{
	smq_json_open(pb->q, NULL, '[');
	smq_json_int(pb->q, NULL, pb->ref[node]);
	smq_json_int(pb->q, NULL, port);
	smq_json_close(pb->q, ']');
	see(pb, node, port);
}

static void entry_close(struct problems *pb, int64_t since_ms)
{
	smq_json_close(pb->q, ']');
	smq_json_int(pb->q, NULL, since_ms);
	smq_json_close(pb->q, ']');
}

/* The lost node @guid's entry, made on first use; NULL when out of memory. */
static struct lost *lost_of(struct problems *pb, uint64_t guid, const char *desc, int64_t since)
{
	for (size_t i = 0; i < pb->nlost; i++)
		if (pb->lost[i].guid == guid)
			return &pb->lost[i];
	if (!grow((void **)&pb->lost, &pb->caplost, pb->nlost, sizeof(*pb->lost)))
		return NULL;
	struct lost *l = &pb->lost[pb->nlost++];
	*l = (struct lost){ .guid = guid, .since_ms = since };
	snprintf(l->desc, sizeof(l->desc), "%s", desc);
	return l;
}

static int down_row(void *arg, const struct db_link_down *d)
{
	struct problems *pb = arg;
	uint32_t a = topo_find_guid(pb->t, d->guid), b = topo_find_guid(pb->t, d->peer_guid);
	char text[320];

	if (a != TOPO_NONE && (b != TOPO_NONE || !d->peer_guid)) {
		if (b != TOPO_NONE)
			snprintf(text, sizeof(text), "link down: \"%s\" port %u - \"%s\" port %u",
				 pb->t->nodes[a].desc, d->port, pb->t->nodes[b].desc, d->peer_port);
		else
			snprintf(text, sizeof(text), "link down: \"%s\" port %u - (its far end "
				 "unknown)", pb->t->nodes[a].desc, d->port);
		entry_open(pb, "down", text);
		entry_end(pb, a, d->port);
		if (b != TOPO_NONE)
			entry_end(pb, b, d->peer_port);
		entry_close(pb, d->since_ms);
		return pb->err;
	}
	if (!d->peer_guid)
		return 0;	/* nowhere on the map: its node gone, its far end unknown */
	if (a == TOPO_NONE && b == TOPO_NONE)
		return 0;	/* nowhere on the map: both nodes gone */
	bool near_left = a != TOPO_NONE;
	struct lost *l = lost_of(pb, near_left ? d->peer_guid : d->guid,
				 near_left ? d->peer_desc : d->desc, d->since_ms);
	if (!l || !grow((void **)&l->ends, &l->cap, l->n, sizeof(*l->ends)))
		return -ENOMEM;
	l->ends[l->n].node = near_left ? a : b;
	l->ends[l->n++].port = near_left ? d->port : d->peer_port;
	return 0;
}

static int silent_row(void *arg, const struct db_unanswered *u)
{
	struct problems *pb = arg;
	uint32_t n = topo_find_guid(pb->t, u->guid);
	char text[640];

	if (n == TOPO_NONE || u->port > pb->t->nodes[n].nports || seen(pb, n, u->port))
		return 0;
	snprintf(text, sizeof(text), "no answer behind \"%s\" port %u: %s", pb->t->nodes[n].desc,
		 u->port, u->detail);
	entry_open(pb, "silent", text);
	entry_end(pb, n, u->port);
	entry_close(pb, u->time_ms);
	return pb->err;
}

int smq_map_problems(struct smq *q, const struct topo *t, const int64_t *ref)
{
	struct problems pb = { .q = q, .t = t, .ref = ref };
	char text[320];

	smq_json_open(q, "pb", '[');
	int err = db_links_down_each(q->db, down_row, &pb);
	for (size_t i = 0; !err && i < pb.nlost; i++) {
		const struct lost *l = &pb.lost[i];
		snprintf(text, sizeof(text), "unreachable: \"%s\" 0x%016" PRIx64 " is gone from the "
			 "fabric, %zu link%s down", l->desc, l->guid, l->n, l->n == 1 ? "" : "s");
		entry_open(&pb, "lost", text);
		for (size_t e = 0; e < l->n; e++)
			entry_end(&pb, l->ends[e].node, l->ends[e].port);
		entry_close(&pb, l->since_ms);
		err = pb.err;
	}
	for (uint32_t i = 0; !err && i < t->n; i++) {
		if (t->nodes[i].responded)
			continue;
		snprintf(text, sizeof(text), "unreachable: \"%s\" 0x%016" PRIx64 " did not answer "
			 "the last sweep", t->nodes[i].desc, t->nodes[i].guid);
		entry_open(&pb, "lost", text);
		entry_end(&pb, i, 0);
		entry_close(&pb, 0);
		err = pb.err;
	}
	if (!err)
		err = db_unanswered_each(q->db, silent_row, &pb);
	smq_json_close(q, ']');
	for (size_t i = 0; i < pb.nlost; i++)
		free(pb.lost[i].ends);
	free(pb.lost);
	free(pb.seen);
	return err;
}
