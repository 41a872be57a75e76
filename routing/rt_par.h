/* SPDX-License-Identifier: MIT */
/*
 * rt_par.h - run independent jobs of the routing stage on every core.
 *
 * Validation and the credit-loop check cut their work into jobs (blocks of
 * destination LIDs); rt_par_run() hands the jobs to worker threads as they
 * become free.  Each job writes only its own result slot and each worker only
 * its own scratch, and callers merge the slots in job order, so the outcome is
 * the same whatever the number of workers and whatever order jobs finish in.
 */
#ifndef IBSMD_RT_PAR_H
#define IBSMD_RT_PAR_H

/* Job @job of rt_par_run(), on worker @worker (0 .. workers - 1). */
typedef void rt_par_job(void *arg, unsigned job, unsigned worker);

/*
 * The number of workers rt_par_run() uses for @njobs jobs: the cores this
 * process may run on (or what rt_par_set_workers() asked for), at most RT_PAR_MAX_WORKERS, at
 * most @njobs, at least 1.
 */
#define RT_PAR_MAX_WORKERS 16
unsigned rt_par_workers(unsigned njobs);

/* Use @n workers from now on (1: everything on the calling thread; 0: one per
 * core).  For tests comparing the two (`taskset -c 0` does it from outside). */
void rt_par_set_workers(unsigned n);

/*
 * Run jobs 0 .. @njobs - 1 of @fn, rt_par_workers(@njobs) at a time; the
 * calling thread is worker 0.  If a thread cannot be started its jobs run on
 * the others.  Returns when every job is done.
 */
void rt_par_run(unsigned njobs, rt_par_job *fn, void *arg);

#endif
