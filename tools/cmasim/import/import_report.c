// SPDX-License-Identifier: GPL-2.0
/*
 * cmasim import --report html: the imported machine's pageblock map, drawn
 * by the run report's own map code (report_html.c), with its free pages
 * against the kernel's (import_check.c), the snapshot's page kinds and
 * each what-if's answer above it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "import/import.h"
#include "report/report.h"
#include "engine/sim_api.h"

/* The free pages of each zone, the kernel's beside the imported machine's, and the warning when off. */
static void html_check(const struct import_machine *im, FILE *out)
{
	fputs("<h2>Free pages against the kernel's</h2>\n", out);
	if (im->check.off) {
		char *text = NULL;
		size_t len;
		FILE *m = open_memstream(&text, &len);

		if (m) {
			import_check_warning(im, m);
			fclose(m);
			fputs("<p class=\"warn\"><b>Warning:</b> ", out);
			html_escape(out, text);
			fputs(".</p>\n", out);
			free(text);
		}
	}
	fputs("<table>\n<tr><th>zone</th><th>buddyinfo</th><th>per-CPU lists</th><th>imported</th><th>difference</th></tr>\n",
	      out);
	for (unsigned z = 0; z < im->nr_zones; z++) {
		const struct import_zone_check *zc = &im->check.zones[z];

		fputs("<tr><td class=\"l\">", out);
		html_escape(out, im->zones[z].name);
		fprintf(out, "</td><td>%lu</td><td>%lu</td><td>%lu</td><td%s>%+.2f%%</td></tr>\n", zc->buddy,
			zc->pcp, zc->imported, zc->off ? " class=\"warn\"" : "", zc->percent);
	}
	fputs("</table>\n", out);
}

int import_report_html(const struct import_machine *im, const char *dir, const struct whatif *w,
		       unsigned nr_whatif, FILE *out)
{
	struct sim_snapshot snap = { 0 };
	char kernel[128];
	const struct import_zone *last = &im->zones[im->nr_zones - 1];
	int ret = sim_snapshot_fill(im->mm, im->zones[0].start_pfn, last->start_pfn + last->spanned,
				    im->pageblock_pages, &snap);

	if (ret)
		return ret;
	fprintf(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>cmasim import: ");
	html_escape(out, dir);
	fprintf(out, "</title>\n<style>\n%s.warn{color:#b00000}\n</style>\n</head>\n<body>\n<h1>cmasim import: ",
		html_style);
	html_escape(out, dir);
	import_kernel_said(im, kernel, sizeof(kernel));
	fprintf(out, "</h1>\n<p>%s</p>\n", kernel);
	html_check(im, out);
	fputs("<h2>Pages</h2>\n<table>\n", out);
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
