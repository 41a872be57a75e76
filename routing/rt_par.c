// SPDX-License-Identifier: MIT
/*
 * rt_par.c - a pool of threads for one batch of jobs (see rt_par.h).
 *
 * A batch starts workers - 1 threads; each worker, the calling thread
 * included, takes the next job number from an atomic counter until none is
 * left.  Threads live for one batch only: the routing stage runs a handful of
 * batches per sweep, each of them hundreds of milliseconds on a large fabric,
 * so starting two threads is noise and nothing stays behind between sweeps.
 */
#define _GNU_SOURCE	/* sched_getaffinity, CPU_COUNT */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <unistd.h>

#include "routing/rt_par.h"

static _Atomic unsigned forced_workers;

struct batch {
	rt_par_job *fn;
	void *arg;
	unsigned njobs;
	atomic_uint next;
};

struct worker {
	struct batch *b;
	unsigned id;
};

void rt_par_set_workers(unsigned n)
{
	atomic_store(&forced_workers, n);
}

unsigned rt_par_workers(unsigned njobs)
{
	unsigned n = atomic_load(&forced_workers);

	if (n == 0) {	/* the cores this process may run on (taskset, cpusets) */
		cpu_set_t set;
		long cores = sched_getaffinity(0, sizeof(set), &set) == 0 ? CPU_COUNT(&set)
			     : sysconf(_SC_NPROCESSORS_ONLN);
		n = cores > 0 ? (unsigned)cores : 1;
	}
	if (n > RT_PAR_MAX_WORKERS)
		n = RT_PAR_MAX_WORKERS;
	if (n > njobs)
		n = njobs;
	return n ? n : 1;
}

static void *work(void *p)
{
	const struct worker *w = p;
	struct batch *b = w->b;
	unsigned job;

	while ((job = atomic_fetch_add(&b->next, 1)) < b->njobs)
		b->fn(b->arg, job, w->id);
	return NULL;
}

void rt_par_run(unsigned njobs, rt_par_job *fn, void *arg)
{
	struct batch b = { .fn = fn, .arg = arg, .njobs = njobs };
	struct worker w[RT_PAR_MAX_WORKERS];
	pthread_t th[RT_PAR_MAX_WORKERS];
	unsigned n = rt_par_workers(njobs), started = 0;

	atomic_init(&b.next, 0);
	for (unsigned i = 0; i < n; i++)
		w[i] = (struct worker){ .b = &b, .id = i };
	/* worker ids stay dense: a thread that fails to start leaves its id to
	 * the next attempt, and its share of the jobs to the others */
	for (unsigned i = 1; i < n; i++)
		if (pthread_create(&th[started], NULL, work, &w[started + 1]) == 0)
			started++;
	work(&w[0]);
	for (unsigned i = 0; i < started; i++)
		pthread_join(th[i], NULL);
}
