#!/bin/sh
# SPDX-License-Identifier: MIT
#
# man_help.sh - the man pages and --help name the same options.  For ibsmd
# and smquery alike: the options of the page's SYNOPSIS are those of the
# --help usage line, and the options the page's OPTIONS section describes are
# those --help lists; for smquery also the commands of the page's COMMANDS
# section and each command's options are those of --help's command list.
#
# The pages are rendered with groff as man(1) shows them, so a font change
# that glues two words together (".BR x \-\-by data" shows "--bydata")
# counts as the reader sees it; a tag is the line after .TP or .TQ outside
# .RS blocks.  Skipped (77) without groff.

set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
# shellcheck source=tests/lib.sh
. "$top_srcdir/tests/lib.sh"
need_cmd groff "the man pages are rendered with it"
make_workdir man_help

# roff on stdin, as text: one line per output line, no page header or footer
render()
{
	{ echo '.TH PAGE 1'; cat; } | groff -man -Tascii -rLL=400n -P-cbou 2>/dev/null |
		grep -v 'PAGE(1)' | sed -e 's/^ *//' -e '/^$/d'
}

# the source of section $2 of page $1
section()
{
	awk -v sh=".SH $2" '/^\.SH/ { on = ($0 == sh); next } on' "$1"
}

# the tags of section $2 of page $1, rendered, one per line
tags()
{
	section "$1" "$2" | awk '
		/^\.RS/ { depth++ } /^\.RE/ { depth-- }
		tag { print ".PP"; print; tag = 0; next }
		/^\.T[PQ]/ && !depth { tag = 1 }' | render
}

# the options named in the text on stdin, once each
options()
{
	grep -oE '(^|[^A-Za-z0-9-])--?[A-Za-z][A-Za-z0-9-]*' | sed 's/^[^-]*//' | sort -u
}

# "$1" and "$2" must hold the same lines; $3 and $4 name them
same()
{
	sort -u "$1" >"$1.s"
	sort -u "$2" >"$2.s"
	only1=$(comm -23 "$1.s" "$2.s" | tr '\n' ' ')
	only2=$(comm -13 "$1.s" "$2.s" | tr '\n' ' ')
	[ -z "$only1" ] || fail "in $3, not in $4: $only1"
	[ -z "$only2" ] || fail "in $4, not in $3: $only2"
}

# --help's usage in file $1 (the lines up to the first that does not go on
# with "[" or give another form, "       ibsmd --import-opensm FILE"), and the
# options --help on stdin lists (a line "  -x, --name ARG what it does", cut
# at the two spaces before the description)
help_usage()
{
	awk '/^usage:/ { on = 1; print; next } on && /^ +(\[|[a-z]+ )/ { print; next }
	     on { exit }' "$1"
}
help_options()
{
	sed -n -E '/^ +-/{ s/^ +//; s/  .*//; p; }'
}

# ibsmd
"$top_builddir/ibsmd" --help >"$work/ibsmd.help" 2>&1 || fail "ibsmd --help failed"
page=$top_srcdir/sm/ibsmd.8
help_usage "$work/ibsmd.help" | options >"$work/ibsmd.usage"
section "$page" SYNOPSIS | render | options >"$work/ibsmd.synopsis"
same "$work/ibsmd.usage" "$work/ibsmd.synopsis" "ibsmd --help's usage" "ibsmd(8) SYNOPSIS"
help_options <"$work/ibsmd.help" | options >"$work/ibsmd.listed"
tags "$page" OPTIONS | options >"$work/ibsmd.described"
same "$work/ibsmd.listed" "$work/ibsmd.described" "ibsmd --help" "ibsmd(8) OPTIONS"

# smquery: options before the command list, then the commands
"$top_builddir/smquery" --help >"$work/smquery.help" 2>&1 || fail "smquery --help failed"
page=$top_srcdir/sm/smquery/smquery.1
help_usage "$work/smquery.help" | options >"$work/smquery.usage"
section "$page" SYNOPSIS | render | options >"$work/smquery.synopsis"
same "$work/smquery.usage" "$work/smquery.synopsis" "smquery --help's usage" "smquery(1) SYNOPSIS"
sed '/^commands:/q' "$work/smquery.help" | help_options | options >"$work/smquery.listed"
tags "$page" OPTIONS | options >"$work/smquery.described"
same "$work/smquery.listed" "$work/smquery.described" "smquery --help" "smquery(1) OPTIONS"

# each command as "NAME" and "NAME OPTION" lines: --help's list has the name
# in columns 3-13 and the arguments from column 15 up to two spaces (a line
# with nothing in columns 3-13 goes on describing the one before)
command_options()
{
	awk '{ name = $1; sub(/^[^ ]+ */, ""); print name
	       n = split($0, w, /[][ |]+/)
	       for (i = 1; i <= n; i++) if (w[i] ~ /^--?[A-Za-z]/) print name " " w[i] }'
}
sed '1,/^commands:/d' "$work/smquery.help" |
	awk '/^  [^ ]/ { name = substr($0, 3, 11); args = substr($0, 15)
	                 sub(/  .*/, "", args); print name " " args }' |
	command_options >"$work/smquery.commands"
tags "$page" COMMANDS | command_options >"$work/smquery.documented"
[ -s "$work/smquery.commands" ] || fail "no command found in smquery --help"
same "$work/smquery.commands" "$work/smquery.documented" "smquery --help's commands" \
	"smquery(1) COMMANDS"
finish
