# Hexadecimal for mawk, which has no strtonum and whose printf %x stops at
# 32 bits; pfns and addresses of the scripts here pass 4 GiB.
function hex(s,   v, i) {
	v = 0
	s = tolower(substr(s, 3))
	for (i = 1; i <= length(s); i++)
		v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
	return v
}
function tohex(v,   s) {
	s = ""
	do {
		s = substr("0123456789abcdef", v % 16 + 1, 1) s
		v = int(v / 16)
	} while (v > 0)
	return "0x" s
}
# pfn_runs(N, V, PAGES): the N blocks at pfns V[] (ascending), PAGES[]
# pages each, as FIRST+PAGES runs joined by ","; "-" for none
function pfn_runs(n, v, pages,   i, j, len, r) {
	r = ""
	for (i = 0; i < n; i = j) {
		len = pages[i]
		for (j = i + 1; j < n && v[j] == v[i] + len; j++)
			len += pages[j]
		r = r (r ? "," : "") tohex(v[i]) "+" len
	}
	return r ? r : "-"
}
