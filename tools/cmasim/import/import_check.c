// SPDX-License-Identifier: GPL-2.0
/*
 * cmasim import: the imported machine held to the kernel's own counts.
 * Each zone's free pages by the machine's buddyinfo are set beside the
 * snapshot's buddyinfo plus its per-CPU lists (zoneinfo's pagesets: the
 * kernel keeps those pages apart, the imported machine keeps them in
 * buddy). Beyond IMPORT_CHECK_PERCENT in any zone, the importer read a
 * machine other than the snapshot's, and an answer about it would be
 * about that other machine.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "import/import.h"

/* Free pages of each zone by a buddyinfo already parsed into @z. */
static unsigned long buddy_pages(const struct import_zone *z, unsigned nr_orders)
{
	unsigned long pages = 0;

	for (unsigned o = 0; o < nr_orders && o < IMPORT_MAX_ORDERS; o++)
		pages += z->buddy[o] << o;
	return pages;
}

/* The imported machine's buddyinfo, read back by the snapshot's own parser, into @mine. */
static int machine_buddyinfo(const struct import_machine *im, const struct snapshot *s,
			     struct snapshot *mine)
{
	char *text = NULL, err[IMPORT_ERR_MAX];
	size_t len;
	FILE *m = open_memstream(&text, &len);
	int ret;

	if (!m)
		return -ENOMEM;
	memset(mine, 0, sizeof(*mine));
	mine->nr_zones = s->nr_zones;
	memcpy(mine->zones, s->zones, sizeof(mine->zones));
	for (unsigned z = 0; z < mine->nr_zones; z++)
		memset(mine->zones[z].buddy, 0, sizeof(mine->zones[z].buddy));
	ret = cma_write_proc(im->mm, "buddyinfo", m);
	if (fclose(m) && !ret)
		ret = -EIO;
	if (!ret && parse_buddyinfo(text, mine, err, sizeof(err)))
		ret = -EIO;
	free(text);
	return ret;
}

int import_check(struct import_machine *im, const struct snapshot *s)
{
	struct import_check *c = &im->check;
	struct snapshot mine;
	int ret = machine_buddyinfo(im, s, &mine);

	if (ret)
		return ret;
	memset(c, 0, sizeof(*c));
	for (unsigned z = 0; z < s->nr_zones; z++) {
		struct import_zone_check *zc = &c->zones[z];
		double want;

		zc->buddy = buddy_pages(&s->zones[z], s->nr_orders);
		zc->pcp = s->zones[z].pcp;
		zc->imported = buddy_pages(&mine.zones[z], s->nr_orders);
		want = (double)zc->buddy + (double)zc->pcp;
		/* a zone the kernel has nothing free in, where the import found some, is off without measure */
		zc->percent = want ? 100.0 * ((double)zc->imported - want) / want :
				     zc->imported ? INFINITY : 0.0;
		zc->off = fabs(zc->percent) > IMPORT_CHECK_PERCENT;
		c->off |= zc->off;
	}
	return 0;
}

void import_check_table(const struct import_machine *im, FILE *out)
{
	fprintf(out, "free pages                buddyinfo  per-CPU lists    imported   difference\n");
	for (unsigned z = 0; z < im->nr_zones; z++) {
		const struct import_zone_check *zc = &im->check.zones[z];

		fprintf(out, "  %-22s %10lu     %10lu  %10lu   %+.2f%%\n", im->zones[z].name, zc->buddy,
			zc->pcp, zc->imported, zc->percent);
	}
}

void import_check_warning(const struct import_machine *im, FILE *out)
{
	const char *sep = "";

	fprintf(out, "the imported machine's free pages differ from the snapshot's buddyinfo and per-CPU lists by more than %d%% (",
		IMPORT_CHECK_PERCENT);
	for (unsigned z = 0; z < im->nr_zones; z++) {
		const struct import_zone_check *zc = &im->check.zones[z];

		if (!zc->off)
			continue;
		fprintf(out, "%s%s %lu imported where the kernel had %lu, %+.2f%%", sep, im->zones[z].name,
			zc->imported, zc->buddy + zc->pcp, zc->percent);
		sep = "; ";
	}
	fputs("): it is not the machine the snapshot shows", out);
}
