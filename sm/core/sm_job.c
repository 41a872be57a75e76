// SPDX-License-Identifier: MIT
/*
 * sm_job.c - running a stage off the loop thread: on the loop's worker when
 * the SM has a loop (the loop keeps serving meanwhile), on a thread of its
 * own otherwise, or right here when no thread can be had.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

#include "sm/core/sm.h"

int sm_offload(struct sm *sm, int (*fn)(void *arg), void *arg)
{
	if (!sm->loop)
		return fn(arg);
	int rc = sm_loop_offload(sm->loop, fn, arg, &sm->stopping);
	if (rc == -ECANCELED)
		sm->abandoned = true;
	return rc;
}

struct sm_job {
	struct sm_loop_job *lj;	/* on the loop's worker */
	pthread_t th;		/* else on a thread of its own (no loop) */
	bool threaded;
	int (*fn)(void *arg);
	void *arg;
	int rc;			/* @fn's result, when it ran here or on th */
};

static void *sm_job_thread(void *arg)
{
	struct sm_job *j = arg;

	j->rc = j->fn(j->arg);
	return NULL;
}

struct sm_job *sm_job_start(struct sm *sm, int (*fn)(void *arg), void *arg)
{
	struct sm_job *j = calloc(1, sizeof(*j));

	if (!j)
		return NULL;
	j->fn = fn;
	j->arg = arg;
	if (sm->loop)
		j->lj = sm_loop_job_start(sm->loop, fn, arg);
	else
		j->threaded = pthread_create(&j->th, NULL, sm_job_thread, j) == 0;
	if (!j->lj && !j->threaded)	/* no thread to be had: right here */
		j->rc = fn(arg);
	return j;
}

int sm_job_wait(struct sm *sm, struct sm_job *j)
{
	int rc;

	if (j->lj) {
		rc = sm_loop_job_wait(sm->loop, j->lj, &sm->stopping);
		if (rc == -ECANCELED)	/* the worker runs on, with the loop's job */
			sm->abandoned = true;
	} else {
		if (j->threaded)
			pthread_join(j->th, NULL);
		rc = j->rc;	/* written by the thread, or here */
	}
	free(j);
	return rc;
}

int sm_offload_during(struct sm *sm, int (*fn)(void *arg), void *arg,
		      int (*here)(void *arg), void *here_arg, int *here_rc)
{
	struct sm_job *j = sm_job_start(sm, fn, arg);

	if (!j) {	/* out of memory: one after the other */
		int rc = fn(arg);
		*here_rc = here(here_arg);
		return rc;
	}
	*here_rc = here(here_arg);
	return sm_job_wait(sm, j);
}
