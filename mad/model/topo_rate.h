/* SPDX-License-Identifier: MIT */
/*
 * topo_rate.h - link widths and speeds: one table of names for every format.
 *
 * A width is PortInfo's LinkWidthActive code (1 = 1x, 2 = 4x, 4 = 8x, 8 = 12x,
 * 16 = 2x).  A speed is a code of our own with one bit per signalling rate, so
 * that it fits the model's one byte and grows with the rate: SDR 1, DDR 2 and
 * QDR 4 (the same values as LinkSpeedActive), FDR 8, EDR 16, HDR 32, NDR 64
 * (LinkSpeedExtActive 1, 2, 4, 8 shifted by 3, IBA 1.5 14.2.5.6) and XDR 128
 * (LinkSpeedExtActive2 1, IBA 1.7).
 * mad_attr.h turns PortInfo fields into these codes; this file knows no wire.
 *
 * Formats: MAD_RATE_TEXT is smquery's text and JSON ("4X", "NDR", "?" when
 * unknown); MAD_RATE_IBND is ibnetdiscover's ("4x", "NDR", "??"/"???"), which
 * topology files use too; MAD_RATE_OSM is OpenSM's opensm-subnet.lst ("4x",
 * SPD "10", "14", "25", "??").
 */
#ifndef IBSMD_TOPO_RATE_H
#define IBSMD_TOPO_RATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum mad_rate_fmt {
	MAD_RATE_TEXT,
	MAD_RATE_IBND,
	MAD_RATE_OSM,
};

#define MAD_SPEED_SDR 1
#define MAD_SPEED_DDR 2
#define MAD_SPEED_QDR 4
#define MAD_SPEED_FDR 8
#define MAD_SPEED_EDR 16
#define MAD_SPEED_HDR 32
#define MAD_SPEED_NDR 64
#define MAD_SPEED_XDR 128

const char *mad_rate_width_name(uint8_t width, enum mad_rate_fmt fmt);
const char *mad_rate_speed_name(uint8_t speed, enum mad_rate_fmt fmt);

/* Lanes of a width, 0 when unknown. */
unsigned mad_rate_lanes(uint8_t width);
/* Data rate of one lane in Mb/s after line coding, 0 when unknown. */
unsigned mad_rate_lane_mbps(uint8_t speed);
/* A link's data rate in Mb/s (lanes x lane rate), 0 when either is unknown. */
uint32_t mad_rate_mbps(uint8_t width, uint8_t speed);
/* A link's signalling rate in kb/s, what its lanes carry with the line
 * coding (SDR 2.5 Gb/s a lane ... FDR 14.0625, EDR 25.78125, HDR 53.125,
 * NDR 106.25, XDR 212.5), 0 when either is unknown. */
uint64_t mad_rate_signal_kbps(uint8_t width, uint8_t speed);

/* The widest of a LinkWidthSupported-style mask, the fastest of a speed-code
 * mask: their highest known bit, 0 when none. */
uint8_t mad_rate_best_width(uint8_t widths);
uint8_t mad_rate_best_speed(uint8_t speeds);

/*
 * A rate token as ibnetdiscover prints it ("4xNDR", "12xQDR"; width letters in
 * either case), @len bytes at @tok.  True with @width and @speed set when it is
 * one; FDR10 (a vendor speed) reads as QDR, the base speed such links report.
 */
bool mad_rate_parse(const char *tok, size_t len, uint8_t *width, uint8_t *speed);

#endif
