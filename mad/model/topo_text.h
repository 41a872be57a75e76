/* SPDX-License-Identifier: MIT */
/*
 * topo_text.h - strings from the fabric and from files, made safe to show.
 *
 * A NodeDescription holds whatever 64 bytes a host chose, and a file may be
 * anything a path was pointed at.  Such a string never reaches a log line, a
 * terminal or an error message as it is: a control byte can move the cursor,
 * clear the screen or write the clipboard (ESC, OSC 52), a line feed forges a
 * log line, a bidi override (U+202E) reorders what follows on the screen.
 * One classification serves every output: a character is unsafe when it is a
 * C0 control (TAB, CR and LF included), DEL, a C1 control (U+0080-U+009F),
 * one of Unicode's Bidi_Control characters (U+061C, U+200E, U+200F,
 * U+202A-U+202E, U+2066-U+2069) or a line or paragraph separator (U+2028,
 * U+2029); a byte that starts no valid UTF-8 sequence is unsafe too.  Each
 * output then shows unsafe characters its own way:
 *  - topo_text_escape(): one line with every byte kept (the daemon's log):
 *    \\, \t, \n, \r, \xHH for other bytes, \uHHHH for unsafe characters;
 *  - topo_text_replace(): in place, each unsafe character one '?' (smquery's
 *    columns: the text keeps its width);
 *  - topo_text_value(): the same, bounded, for a value an error message
 *    quotes;
 *  - topo_text_token(): the short start of a string that may be a secret
 *    (a line of a file that is not what it should be), for error messages.
 * Everything here is libc only and keeps no state.
 */
#ifndef IBSMD_TOPO_TEXT_H
#define IBSMD_TOPO_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The length (1 to 4) of the valid UTF-8 sequence that starts @s, with its
 * code point in *@cp; 0 when none starts there: a stray continuation byte, an
 * overlong form, a surrogate, a code point past U+10FFFF or a sequence cut
 * short (by the terminating NUL too).
 */
unsigned topo_utf8_next(const char *s, uint32_t *cp);

/* Whether code point @cp may not reach a terminal or a log line as it is. */
bool topo_text_unsafe(uint32_t cp);

/*
 * @in escaped into @out (@size bytes, at least 1): safe characters as they
 * are, a backslash doubled, TAB, LF and CR as \t \n \r, any other unsafe
 * byte (C0, DEL, a byte of no valid UTF-8 sequence) as \xHH and an unsafe
 * character of several bytes as \uHHHH.  What does not fit is cut before
 * the escape or character that would not fit whole.  Returns the length of
 * the whole escaped text (without the NUL), as snprintf() does: @size or
 * more when it was cut.
 */
size_t topo_text_escape(char *out, size_t size, const char *in);

/* @s in place: each unsafe character, each byte of no valid UTF-8 sequence
 * one '?'. */
void topo_text_replace(char *s);

/* Room topo_text_value() needs: TOPO_TEXT_VALUE_MAX bytes, "...", NUL. */
#define TOPO_TEXT_VALUE_MAX 64
#define TOPO_TEXT_VALUE_SIZE (TOPO_TEXT_VALUE_MAX + 4)

/* A value an error message quotes (a name, a number, a port of a file in its
 * expected format): @s escaped as topo_text_escape() does, at most
 * TOPO_TEXT_VALUE_MAX bytes of it, then "..." when cut.  Returns @out. */
const char *topo_text_value(char out[TOPO_TEXT_VALUE_SIZE], const char *s);

/* Room topo_text_token() needs: TOPO_TEXT_TOKEN_MAX bytes, "...", NUL. */
#define TOPO_TEXT_TOKEN_MAX 20
#define TOPO_TEXT_TOKEN_SIZE (TOPO_TEXT_TOKEN_MAX + 4)

/*
 * What an error message may quote of @s, a word of a file that was not what
 * it should be: its leading letters, digits, '_', '.' and '-', at most
 * TOPO_TEXT_TOKEN_MAX of them, then "..." when the word goes on with what is
 * not shown (a blank or the end ends it).  A line of /etc/shadow shows as
 * "root...": never a separator, a hash or a control byte.  Returns @out.
 */
const char *topo_text_token(char out[TOPO_TEXT_TOKEN_SIZE], const char *s);

#endif
