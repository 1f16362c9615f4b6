// SPDX-License-Identifier: GPL-2.0
/*
 * cmasim import --report html: the imported machine's pageblock map, drawn
 * by the run report's own map code (report_html.c), with the snapshot's
 * page kinds and each what-if's answer above it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "import.h"
#include "report.h"
#include "sim.h"

int import_report_html(const struct import_machine *im, const char *dir, const struct whatif *w,
		       unsigned nr_whatif, FILE *out)
{
	struct sim_snapshot snap = { 0 };
	const struct import_zone *last = &im->zones[im->nr_zones - 1];
	int ret = sim_snapshot_fill(im->mm, im->zones[0].start_pfn, last->start_pfn + last->spanned,
				    im->pageblock_pages, &snap);

	if (ret)
		return ret;
	fprintf(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>cmasim import: ");
	html_escape(out, dir);
	fprintf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>cmasim import: ", html_style);
	html_escape(out, dir);
	fprintf(out, "</h1>\n<p>kernel profile %s</p>\n<h2>Pages</h2>\n<table>\n", im->kernel);
	for (unsigned k = 0; k < NR_PAGE_KINDS; k++)
		if (k != PK_HOLE)
			fprintf(out, "<tr><td>%s</td><td>%lu</td></tr>\n", page_kind_names[k],
				im->pk.total[k]);
	fputs("</table>\n", out);
	if (nr_whatif) {
		fputs("<h2>What if</h2>\n<pre>", out);
		for (unsigned i = 0; i < nr_whatif; i++) {
			char *text = NULL;
			size_t len;
			FILE *m = open_memstream(&text, &len);

			if (!m)
				break;
			whatif_print(im, &w[i], m);
			fclose(m);
			html_escape(out, text);
			free(text);
		}
		fputs("</pre>\n", out);
	}
	fputs("<h2>Pageblocks</h2>\n", out);
	html_map_legend(out);
	html_map(out, &snap);
	fputs("</body>\n</html>\n", out);
	free(snap.blocks);
	return ferror(out) ? -EIO : 0;
}
