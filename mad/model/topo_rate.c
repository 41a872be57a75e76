// SPDX-License-Identifier: MIT
/*
 * topo_rate.c - the one table of link width and speed names (topo_rate.h).
 *
 * Each width and each speed is one row: its code, its name in every format,
 * and what it carries.  Lookups walk the rows; a code with no row gets the
 * format's "unknown" name.
 */
#include <string.h>
#include <strings.h>

#include "mad/model/topo_rate.h"

struct width_row {
	uint8_t code;
	unsigned lanes;
	const char *text, *ibnd;	/* MAD_RATE_OSM prints the ibnetdiscover name */
};

struct speed_row {
	uint8_t code;
	unsigned lane_mbps;	/* after 8b/10b (SDR-QDR) or 64b/66b coding */
	const char *text, *osm;	/* MAD_RATE_IBND prints the text name */
	uint32_t lane_signal_kbps;	/* on the wire: line coding (and HDR's FEC) included */
};

static const struct width_row widths[] = {
	{ 1, 1, "1X", "1x" },
	{ 16, 2, "2X", "2x" },
	{ 2, 4, "4X", "4x" },
	{ 4, 8, "8X", "8x" },
	{ 8, 12, "12X", "12x" },
};

static const struct speed_row speeds[] = {
	{ MAD_SPEED_SDR, 2000, "SDR", "2.5", 2500000 },
	{ MAD_SPEED_DDR, 4000, "DDR", "5", 5000000 },
	{ MAD_SPEED_QDR, 8000, "QDR", "10", 10000000 },
	{ MAD_SPEED_FDR, 13636, "FDR", "14", 14062500 },
	{ MAD_SPEED_EDR, 25000, "EDR", "25", 25781250 },
	{ MAD_SPEED_HDR, 50000, "HDR", "??", 53125000 },
	{ MAD_SPEED_NDR, 100000, "NDR", "??", 106250000 },
	{ MAD_SPEED_XDR, 200000, "XDR", "??", 212500000 },
};

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

static const struct width_row *width_row(uint8_t code)
{
	for (size_t i = 0; i < NELEM(widths); i++)
		if (widths[i].code == code)
			return &widths[i];
	return NULL;
}

static const struct speed_row *speed_row(uint8_t code)
{
	for (size_t i = 0; i < NELEM(speeds); i++)
		if (speeds[i].code == code)
			return &speeds[i];
	return NULL;
}

const char *mad_rate_width_name(uint8_t width, enum mad_rate_fmt fmt)
{
	const struct width_row *r = width_row(width);

	if (fmt == MAD_RATE_TEXT)
		return r ? r->text : "?";
	return r ? r->ibnd : "??";
}

const char *mad_rate_speed_name(uint8_t speed, enum mad_rate_fmt fmt)
{
	const struct speed_row *r = speed_row(speed);

	switch (fmt) {
	case MAD_RATE_TEXT: return r ? r->text : "?";
	case MAD_RATE_IBND: return r ? r->text : "???";
	default: return r ? r->osm : "??";
	}
}

unsigned mad_rate_lanes(uint8_t width)
{
	const struct width_row *r = width_row(width);

	return r ? r->lanes : 0;
}

unsigned mad_rate_lane_mbps(uint8_t speed)
{
	const struct speed_row *r = speed_row(speed);

	return r ? r->lane_mbps : 0;
}

uint32_t mad_rate_mbps(uint8_t width, uint8_t speed)
{
	return (uint32_t)mad_rate_lanes(width) * mad_rate_lane_mbps(speed);
}

uint64_t mad_rate_signal_kbps(uint8_t width, uint8_t speed)
{
	const struct speed_row *r = speed_row(speed);

	return r ? (uint64_t)mad_rate_lanes(width) * r->lane_signal_kbps : 0;
}

uint8_t mad_rate_best_width(uint8_t mask)
{
	const struct width_row *best = NULL;

	for (size_t i = 0; i < NELEM(widths); i++)
		if ((mask & widths[i].code) && (!best || widths[i].lanes > best->lanes))
			best = &widths[i];
	return best ? best->code : 0;
}

uint8_t mad_rate_best_speed(uint8_t mask)
{
	for (size_t i = NELEM(speeds); i-- > 0;)
		if (mask & speeds[i].code)
			return speeds[i].code;
	return 0;
}

bool mad_rate_parse(const char *tok, size_t len, uint8_t *width, uint8_t *speed)
{
	for (size_t w = 0; w < NELEM(widths); w++) {
		size_t wl = strlen(widths[w].ibnd);
		if (len <= wl || strncasecmp(tok, widths[w].ibnd, wl) != 0)
			continue;
		const char *s = tok + wl;
		size_t sl = len - wl;
		if (sl == 5 && strncmp(s, "FDR10", 5) == 0) {
			*width = widths[w].code;
			*speed = MAD_SPEED_QDR;
			return true;
		}
		for (size_t i = 0; i < NELEM(speeds); i++)
			if (sl == strlen(speeds[i].text) && strncmp(s, speeds[i].text, sl) == 0) {
				*width = widths[w].code;
				*speed = speeds[i].code;
				return true;
			}
	}
	return false;
}
