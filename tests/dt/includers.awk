# The files of a kernel source tree that reach, through their #include and
# /include/ lines, a file with a given string (tests/dt/build-corpus.sh):
# those that may hold the string once preprocessed; the others cannot.
#
#   awk -f includers.awk phase=link LINKS phase=file FILES phase=seed SEEDS phase=edge EDGES
#
# LINKS: "NAME TARGET" for each scripts/dtc/include-prefixes/NAME symlink;
# FILES: every file, a path from the tree's top; SEEDS: the files with the
# string; EDGES: grep -H's "FILE:LINE" for each include line. Prints every
# file that has the string or includes one that has it, at any depth.
#
# An include is resolved as cpp -I include-prefixes -I BOARD_DIR and
# dtc -i BOARD_DIR -i include-prefixes resolve it (tests/dt/build-corpus.sh):
# a name beside the including file, else (for cpp) in include-prefixes.
# Where the board's own directory decides (a name found in neither place,
# or dtc's /include/ of a name not beside the file), the include counts as
# reaching every file whose path ends in that name: more files than the
# preprocessor would read, never fewer.

function canon(path,	n, c, i, k, s, out)
{
	n = split(path, c, "/")
	k = 0
	for (i = 1; i <= n; i++) {
		if (c[i] == "" || c[i] == ".")
			continue
		if (c[i] == "..") {
			if (k)
				k--
			continue
		}
		s[++k] = c[i]
		# include-prefixes/NAME is a symlink: '..' after it leaves its target
		if (k == 4 && s[1] "/" s[2] "/" s[3] == "scripts/dtc/include-prefixes" && (s[4] in link))
			k = split(link[s[4]], s, "/")
	}
	out = s[1]
	for (i = 2; i <= k; i++)
		out = out "/" s[i]
	return k ? out : ""
}

# the name without what leads up to its last '..': what any match ends in
function tail_of(name)
{
	sub(/^(.*\/)?\.\.\//, "", name)
	sub(/^(\.\/)+/, "", name)
	return name
}

function mark(path,	n, c, i, sfx)
{
	if (path in reached)
		return 0
	reached[path] = 1
	n = split(path, c, "/")
	sfx = c[n]
	ends[sfx] = 1
	for (i = n - 1; i >= 1; i--) {
		sfx = c[i] "/" sfx
		ends[sfx] = 1
	}
	return 1
}

phase == "link" { link[$1] = canon("scripts/dtc/include-prefixes/" $2); next }
phase == "file" { exists[$0] = 1; next }
phase == "seed" { mark($0); next }
phase == "edge" {
	file = $0
	sub(/:.*/, "", file)
	text = substr($0, length(file) + 2)
	dir = file
	sub(/\/[^\/]*$/, "", dir)
	from[++nr] = file
	if (!match(text, /["<][^">]*[">]/)) {	# a macro names it: it may reach anything
		any[nr] = 1
		next
	}
	name = substr(text, RSTART + 1, RLENGTH - 2)
	angle = substr(text, RSTART, 1) == "<"
	dtc = text ~ /^[ \t]*\/include\//
	beside = canon(dir "/" name)
	prefixed = canon("scripts/dtc/include-prefixes/" name)
	if (!angle && (beside in exists))
		to[nr] = beside
	else if (!dtc && (prefixed in exists))
		to[nr] = prefixed
	else {
		to[nr] = prefixed
		ending[nr] = tail_of(name)
	}
	next
}

END {
	do {
		changed = 0
		for (e = 1; e <= nr; e++)
			if (!(from[e] in reached) &&
			    ((e in any) || (to[e] in reached) || ((e in ending) && (ending[e] in ends))))
				changed += mark(from[e])
	} while (changed)
	for (path in reached)
		print path
}
