#!/bin/sh
# SPDX-License-Identifier: MIT
# layers.sh - the layering the build promises, checked on the built objects:
#  - smquery links neither the daemon's library (no symbol of
#    sm/libibsmd_sm.a in it, not on its link line) nor libyaml, libibumad,
#    libibmad (not in ldd's list, not on its link line), nor mad/'s library;
#  - the store (db/) and the fabric model (mad/model/) include no header of
#    the wire (mad/ outside mad/model/),
#    use no symbol the mad/ library defines, and link neither it nor
#    libibumad/libibmad;
#  - the model library uses nothing but libc (no symbol of another area).
set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
need_cmd nm binutils
make_workdir layers
tmp=$work

# defined ARCHIVE: the global symbols ARCHIVE defines, one a line, sorted
defined() {
	nm -g --defined-only "$1" 2> /dev/null | awk 'NF == 3 { print $3 }' | sort -u
}

# undefined ARCHIVE: the symbols ARCHIVE needs from elsewhere, sorted
undefined() {
	nm -g --undefined-only "$1" 2> /dev/null | awk '{ print $NF }' | sort -u
}

lib() {
	f="$top_builddir/$1/.libs/libibsmd_$2.a"
	[ -f "$f" ] || { echo "ERROR: $f not built"; exit 99; }
	echo "$f"
}
SM_A=$(lib sm sm) MAD_A=$(lib mad mad) DB_A=$(lib db db) MODEL_A=$(lib mad/model model)
ROUTING_A=$(lib routing routing)

# smquery: no symbol of the daemon's library, no libyaml/libibumad/libibmad
defined "$SM_A" > "$tmp/sm"
nm "$top_builddir/smquery" | awk 'NF == 3 { print $3 }' | sort -u > "$tmp/smquery"
both=$(comm -12 "$tmp/sm" "$tmp/smquery" | tr '\n' ' ')
[ -z "$both" ] || fail "smquery holds symbols of sm/libibsmd_sm: $both"
"$top_builddir/libtool" --mode=execute ldd "$top_builddir/smquery" > "$tmp/ldd" 2>&1 ||
	fail "ldd smquery: $(cat "$tmp/ldd")"
libs=$(grep -E 'libyaml|libibumad|libibmad' "$tmp/ldd" | awk '{ print $1 }' | tr '\n' ' ')
[ -z "$libs" ] || fail "smquery links $libs"

# make_var NAME: the value of NAME in the build's Makefile, expanded
make_var() {
	# shellcheck disable=SC2016 # $(...) is make's, not the shell's
	printf 'layers-print:\n\t@echo $(%s)\n' "$1" | MAKEFLAGS='' MFLAGS='' \
		"${MAKE:-make}" -s --no-print-directory -C "$top_builddir" -f Makefile -f - layers-print
}

# the link lines themselves: the linker's --as-needed drops a library that no
# object uses yet, so ldd alone would let the build list one
for var in smquery_LDADD DB_LIBS db_libibsmd_db_la_LIBADD; do
	line=$(make_var "$var") || fail "cannot read $var from $top_builddir/Makefile"
	for lib in libibsmd_sm.la libibsmd_mad.la -lyaml -libumad -libmad; do
		case " $line " in
		*"$lib "*) fail "$var names $lib: $line" ;;
		esac
	done
done

# db/ and mad/model/: no header of the wire (mad/ but its model), no symbol
# of the wire's library
inc=$(grep -Hn '#include "mad/' "$top_srcdir"/db/*.[ch] "$top_srcdir"/mad/model/*.[ch] |
	grep -v '#include "mad/model/' | cut -d: -f1 | sort -u)
[ -z "$inc" ] || fail "wire headers (mad/, not mad/model/) included by: $inc"
defined "$MAD_A" > "$tmp/mad"
for a in "$DB_A" "$MODEL_A"; do
	undefined "$a" > "$tmp/needs"
	used=$(comm -12 "$tmp/mad" "$tmp/needs" | tr '\n' ' ')
	[ -z "$used" ] || fail "$(basename "$a") uses mad/ symbols: $used"
done

# the model: nothing from any other area of ours
cat "$tmp/mad" "$tmp/sm" > "$tmp/ours"
defined "$DB_A" >> "$tmp/ours"
defined "$ROUTING_A" >> "$tmp/ours"
sort -u -o "$tmp/ours" "$tmp/ours"
undefined "$MODEL_A" > "$tmp/needs"
used=$(comm -12 "$tmp/ours" "$tmp/needs" | tr '\n' ' ')
[ -z "$used" ] || fail "the model library uses: $used"

[ "$fails" -eq 0 ] && echo "layers: smquery, db/ and mad/model/ keep to their layers"
finish
