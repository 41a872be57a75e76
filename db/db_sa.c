// SPDX-License-Identifier: MIT
/*
 * db_sa.c - the SA's registrations kept across a restart (sm/sa/sm_sa_store.c):
 * ServiceRecords (table sa_services) and InformInfo trap subscriptions
 * (table sa_informs).
 *
 * Both tables are rewritten whole by db_sa_save(), in one transaction (a few
 * thousand rows at worst).  A service row holds every field of the record
 * (ServiceData as one 64-byte blob, big-endian as on the wire), the
 * requester's LID, and the lease's end on the store's clock (NULL: never).
 * A subscription row holds the subscriber's LID and the InformInfo's fields.
 * The alias GUIDs (table sa_aliases) are rewritten whole by
 * db_sa_aliases_save(): the port's GUID, the entry and the alias.
 * Reading back, every column is range-checked: a row with a value its field
 * cannot hold (a blob of the wrong length, a text, a number out of range) is
 * skipped and counted, never passed on.
 */
#include <errno.h>
#include <string.h>

#include "db/db_int.h"

#define SA_DATA_LEN 64	/* ServiceData8[16], 16[8], 32[4], 64[2] */

/* Big-endian @n bytes of @v at @p, and back. */
static void put_be(uint8_t *p, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * (n - 1 - i)));
}

static uint64_t get_be(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < n; i++)
		v = v << 8 | p[i];
	return v;
}

static void data_encode(const struct db_sa_service *s, uint8_t out[SA_DATA_LEN])
{
	memcpy(out, s->data8, 16);
	for (unsigned i = 0; i < 8; i++)
		put_be(out + 16 + 2 * i, s->data16[i], 2);
	for (unsigned i = 0; i < 4; i++)
		put_be(out + 32 + 4 * i, s->data32[i], 4);
	for (unsigned i = 0; i < 2; i++)
		put_be(out + 48 + 8 * i, s->data64[i], 8);
}

static void data_decode(const uint8_t in[SA_DATA_LEN], struct db_sa_service *s)
{
	memcpy(s->data8, in, 16);
	for (unsigned i = 0; i < 8; i++)
		s->data16[i] = (uint16_t)get_be(in + 16 + 2 * i, 2);
	for (unsigned i = 0; i < 4; i++)
		s->data32[i] = (uint32_t)get_be(in + 32 + 4 * i, 4);
	for (unsigned i = 0; i < 2; i++)
		s->data64[i] = get_be(in + 48 + 8 * i, 8);
}

struct sa_rows {
	const struct db_sa_service *s;
	size_t ns;
	const struct db_sa_inform *i;
	size_t ni;
};

static int save_service(struct db *db, const struct db_sa_service *s)
{
	uint8_t data[SA_DATA_LEN];
	sqlite3_stmt *st;
	int err = db_prepare_cached(db, "INSERT INTO sa_services (service_id, gid, pkey, lease,"
				    " service_key, name, data, lid, expires_ms)"
				    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", &st);

	if (err)
		return err;
	data_encode(s, data);
	sqlite3_bind_int64(st, 1, db_guid_to_sql(s->id));
	sqlite3_bind_blob(st, 2, s->gid, sizeof(s->gid), SQLITE_TRANSIENT);
	sqlite3_bind_int(st, 3, s->pkey);
	sqlite3_bind_int64(st, 4, s->lease);
	sqlite3_bind_blob(st, 5, s->key, sizeof(s->key), SQLITE_TRANSIENT);
	sqlite3_bind_blob(st, 6, s->name, sizeof(s->name), SQLITE_TRANSIENT);
	sqlite3_bind_blob(st, 7, data, sizeof(data), SQLITE_TRANSIENT);
	sqlite3_bind_int(st, 8, s->lid);
	if (s->expires_ms == DB_SA_NEVER)
		sqlite3_bind_null(st, 9);
	else
		sqlite3_bind_int64(st, 9, s->expires_ms);
	return db_step_done(db, st, "saving a ServiceRecord");
}

static int save_inform(struct db *db, const struct db_sa_inform *ii)
{
	sqlite3_stmt *st;
	int err = db_prepare_cached(db, "INSERT INTO sa_informs (lid, qpn, gid, lid_begin,"
				    " lid_end, is_generic, type, trap_num, producer_type,"
				    " resp_time) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", &st);

	if (err)
		return err;
	sqlite3_bind_int(st, 1, ii->lid);
	sqlite3_bind_int64(st, 2, ii->qpn);
	sqlite3_bind_blob(st, 3, ii->gid, sizeof(ii->gid), SQLITE_TRANSIENT);
	sqlite3_bind_int(st, 4, ii->lid_begin);
	sqlite3_bind_int(st, 5, ii->lid_end);
	sqlite3_bind_int(st, 6, ii->is_generic);
	sqlite3_bind_int(st, 7, ii->type);
	sqlite3_bind_int(st, 8, ii->trap_num);
	sqlite3_bind_int64(st, 9, ii->producer_type);
	sqlite3_bind_int(st, 10, ii->resp_time);
	return db_step_done(db, st, "saving an InformInfo subscription");
}

static int sa_fill(struct db *db, void *arg)
{
	const struct sa_rows *r = arg;
	int err = db_exec(db, "DELETE FROM sa_services; DELETE FROM sa_informs");

	for (size_t k = 0; !err && k < r->ns; k++)
		err = save_service(db, &r->s[k]);
	for (size_t k = 0; !err && k < r->ni; k++)
		err = save_inform(db, &r->i[k]);
	return err;
}

int db_sa_save(struct db *db, const struct db_sa_service *s, size_t ns,
	       const struct db_sa_inform *i, size_t ni)
{
	struct sa_rows r = { s, ns, i, ni };

	return db_batch(db, sa_fill, &r);
}

/* Column @c of the row as an integer in [@lo, @hi]; false when it is not an
 * integer or out of that range. */
static bool col_int(sqlite3_stmt *st, int c, int64_t lo, int64_t hi, int64_t *v)
{
	if (sqlite3_column_type(st, c) != SQLITE_INTEGER)
		return false;
	*v = sqlite3_column_int64(st, c);
	return *v >= lo && *v <= hi;
}

/* Column @c as a blob of exactly @len bytes, copied to @out. */
static bool col_blob(sqlite3_stmt *st, int c, void *out, size_t len)
{
	const void *p = sqlite3_column_blob(st, c);

	if (sqlite3_column_type(st, c) != SQLITE_BLOB || (size_t)sqlite3_column_bytes(st, c) != len
	    || !p)
		return false;
	memcpy(out, p, len);
	return true;
}

static bool service_row(sqlite3_stmt *st, struct db_sa_service *s)
{
	uint8_t data[SA_DATA_LEN];
	int64_t id, pkey, lease, lid, exp = DB_SA_NEVER;

	if (!col_int(st, 0, INT64_MIN, INT64_MAX, &id) || !col_blob(st, 1, s->gid, sizeof(s->gid)) ||
	    !col_int(st, 2, 0, UINT16_MAX, &pkey) || !col_int(st, 3, 0, UINT32_MAX, &lease) ||
	    !col_blob(st, 4, s->key, sizeof(s->key)) || !col_blob(st, 5, s->name, sizeof(s->name)) ||
	    !col_blob(st, 6, data, sizeof(data)) || !col_int(st, 7, 0, UINT16_MAX, &lid) ||
	    (sqlite3_column_type(st, 8) != SQLITE_NULL &&
	     !col_int(st, 8, INT64_MIN, DB_SA_NEVER - 1, &exp)))
		return false;
	s->id = db_guid_from_sql(id);
	s->pkey = (uint16_t)pkey;
	s->lease = (uint32_t)lease;
	data_decode(data, s);
	s->lid = (uint16_t)lid;
	s->expires_ms = exp;
	return true;
}

static bool inform_row(sqlite3_stmt *st, struct db_sa_inform *ii)
{
	int64_t lid, qpn, begin, end, generic, type, trap, producer, resp;

	if (!col_int(st, 0, 0, UINT16_MAX, &lid) || !col_int(st, 1, 0, 0xffffff, &qpn) ||
	    !col_blob(st, 2, ii->gid, sizeof(ii->gid)) || !col_int(st, 3, 0, UINT16_MAX, &begin) ||
	    !col_int(st, 4, 0, UINT16_MAX, &end) || !col_int(st, 5, 0, 1, &generic) ||
	    !col_int(st, 6, 0, UINT16_MAX, &type) || !col_int(st, 7, 0, UINT16_MAX, &trap) ||
	    !col_int(st, 8, 0, 0xffffff, &producer) || !col_int(st, 9, 0, 31, &resp))
		return false;
	ii->lid = (uint16_t)lid;
	ii->qpn = (uint32_t)qpn;
	ii->lid_begin = (uint16_t)begin;
	ii->lid_end = (uint16_t)end;
	ii->is_generic = generic;
	ii->type = (uint16_t)type;
	ii->trap_num = (uint16_t)trap;
	ii->producer_type = (uint32_t)producer;
	ii->resp_time = (uint8_t)resp;
	return true;
}

/* A row that is not one (skipped and counted by each_row()). */
#define ROW_DAMAGED 1

/* Each row @sql gives handed to @take(@st, @ctx): ROW_DAMAGED counts it in
 * *@damaged; any other non-zero return stops and is returned. */
static int each_row(struct db *db, const char *sql, const char *what,
		    int (*take)(sqlite3_stmt *st, void *ctx), void *ctx, unsigned *damaged)
{
	sqlite3_stmt *st;
	int rc = SQLITE_DONE, ret = 0;
	int err = db_prepare(db, sql, &st);

	*damaged = 0;
	if (err)
		return err;
	while (!ret && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		ret = take(st, ctx);
		if (ret == ROW_DAMAGED) {
			++*damaged;
			ret = 0;
		}
	}
	if (!ret && rc != SQLITE_DONE)
		ret = db_fail(db, rc, what);
	sqlite3_finalize(st);
	return ret;
}

struct service_each {
	int (*fn)(void *arg, const struct db_sa_service *s);
	void *arg;
};

static int take_service(sqlite3_stmt *st, void *ctx)
{
	const struct service_each *e = ctx;
	struct db_sa_service s;

	return service_row(st, &s) ? e->fn(e->arg, &s) : ROW_DAMAGED;
}

int db_sa_services_each(struct db *db, int (*fn)(void *arg, const struct db_sa_service *s),
			void *arg, unsigned *damaged)
{
	struct service_each e = { fn, arg };

	return each_row(db, "SELECT service_id, gid, pkey, lease, service_key, name, data, lid,"
			" expires_ms FROM sa_services ORDER BY rowid", "reading ServiceRecords",
			take_service, &e, damaged);
}

struct inform_each {
	int (*fn)(void *arg, const struct db_sa_inform *ii);
	void *arg;
};

static int take_inform(sqlite3_stmt *st, void *ctx)
{
	const struct inform_each *e = ctx;
	struct db_sa_inform ii;

	return inform_row(st, &ii) ? e->fn(e->arg, &ii) : ROW_DAMAGED;
}

int db_sa_informs_each(struct db *db, int (*fn)(void *arg, const struct db_sa_inform *ii),
		       void *arg, unsigned *damaged)
{
	struct inform_each e = { fn, arg };

	return each_row(db, "SELECT lid, qpn, gid, lid_begin, lid_end, is_generic, type, trap_num,"
			" producer_type, resp_time FROM sa_informs ORDER BY rowid",
			"reading InformInfo subscriptions", take_inform, &e, damaged);
}

struct alias_rows {
	const struct db_sa_alias *a;
	size_t n;
};

static int aliases_fill(struct db *db, void *arg)
{
	const struct alias_rows *r = arg;
	int err = db_exec(db, "DELETE FROM sa_aliases");

	for (size_t k = 0; !err && k < r->n; k++) {
		sqlite3_stmt *st;
		if ((err = db_prepare_cached(db, "INSERT INTO sa_aliases (port_guid, idx, alias_guid)"
					     " VALUES (?, ?, ?)", &st)))
			break;
		sqlite3_bind_int64(st, 1, (int64_t)r->a[k].port_guid);
		sqlite3_bind_int(st, 2, r->a[k].index);
		sqlite3_bind_int64(st, 3, (int64_t)r->a[k].alias);
		err = db_step_done(db, st, "saving an alias GUID");
	}
	return err;
}

int db_sa_aliases_save(struct db *db, const struct db_sa_alias *a, size_t n)
{
	struct alias_rows r = { a, n };

	return db_batch(db, aliases_fill, &r);
}

struct alias_each {
	int (*fn)(void *arg, const struct db_sa_alias *a);
	void *arg;
};

static int take_alias(sqlite3_stmt *st, void *ctx)
{
	const struct alias_each *e = ctx;
	int64_t port, idx, alias;

	if (!col_int(st, 0, INT64_MIN, INT64_MAX, &port) || !port ||
	    !col_int(st, 1, 1, INT16_MAX, &idx) ||
	    !col_int(st, 2, INT64_MIN, INT64_MAX, &alias) || !alias)
		return ROW_DAMAGED;
	struct db_sa_alias a = { .port_guid = (uint64_t)port, .index = (uint16_t)idx,
				 .alias = (uint64_t)alias };
	return e->fn(e->arg, &a);
}

int db_sa_aliases_each(struct db *db, int (*fn)(void *arg, const struct db_sa_alias *a),
		       void *arg, unsigned *damaged)
{
	struct alias_each e = { fn, arg };

	return each_row(db, "SELECT port_guid, idx, alias_guid FROM sa_aliases ORDER BY rowid",
			"reading alias GUIDs", take_alias, &e, damaged);
}
