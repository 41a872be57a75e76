/* SPDX-License-Identifier: MIT */
/*
 * topofile.h - read fabric descriptions in ibsim's / ibnetdiscover's format.
 *
 * Accepts both dialects: ibsim net files (`Switch 8 "sw1"` then `[1] "hca1"[1]`)
 * and ibnetdiscover output (`Switch 36 "S-<guid>" # "desc" ...`, `Ca`/`Hca`,
 * `switchguid=`/`caguid=`/`sysimgguid=` lines, `[1](portguid) "S-..."[26]`).
 * A peer named by a line on one side only is linked both ways.  Node GUIDs come
 * from the file where it gives them, else are made up the way ibsim makes them
 * (switches from 0x200000, one GUID each; CAs from 0x100000, each taking
 * nports + 1 GUIDs).
 */
#ifndef IBSMD_TOPOFILE_H
#define IBSMD_TOPOFILE_H

#include <stddef.h>
#include <stdio.h>

#include "mad/model/topo.h"

/*
 * Parse the file at @path into @out (initialised here).  Returns 0, or -errno
 * with "FILE:LINE: what is wrong" in @err; on error @out is left empty (freed),
 * never half loaded.  On success @err is empty, or holds a warning the topology
 * is kept despite: "FILE:LINE: warning: port GUID G of "B"[p] is also the GUID
 * of "A"[q] (line L)", for ports of two records that share a port GUID (a
 * switch's is its port 0's), with the number of such ports when there are more.
 */
int topofile_load(const char *path, struct topo *out, char *err, size_t errlen);

/* The same from an open stream; @name is used in messages. */
int topofile_parse(FILE *in, const char *name, struct topo *out, char *err,
		   size_t errlen);

#endif
