// SPDX-License-Identifier: MIT
/* mad_topofile.c - placeholder (being written). */
#include "mad/mad_topofile.h"
