// SPDX-License-Identifier: GPL-2.0
/*
 * The built-in scenarios, as scenario-file text read by the same parser
 * (cmasim show NAME prints one, a start for a file of one's own).
 *
 * The camera's buffers are 1080p NV12 frames (1920 x 1080 x 1.5 =
 * 3110400 bytes); a frame period of 33 ms is 30 frames per second, and a
 * buffer must be ready before the next frame is due.
 */
#include <string.h>

#include "scenario.h"

struct builtin {
	const char *name;
	const char *text;
};

static const struct builtin builtins[] = {
	{ "camera-browser",
	  "[scenario]\n"
	  "description = ARM board: a camera streams in sessions while a browser fills the page cache and holds anonymous memory\n"
	  "platform = arm\n"
	  "cmdline = cma=64M\n"
	  "duration = 60s\n"
	  "seed = 1\n"
	  "snapshot = 5s\n"
	  "snapshot = 31s\n"
	  "snapshot = 37s\n"
	  "snapshot = 60s\n"
	  "\n"
	  "[pagecache browser-cache]\n"
	  "file = 2G\n"
	  "rate = 8000\n"
	  "\n"
	  "[anon browser]\n"
	  "rss = 256M\n"
	  "rate = 5000\n"
	  "\n"
	  "[slab kernel]\n"
	  "rate = 300\n"
	  "orders = 0:80 1:10 2:5 3:5\n"
	  "lifetime = 20s\n"
	  "reclaimable = 30\n"
	  "max = 48M\n"
	  "\n"
	  "[device camera]\n"
	  "size = 3110400\n"
	  "ring = 4\n"
	  "period = 33ms\n"
	  "deadline = 33ms\n"
	  "start = 10s\n"
	  "session = 4s\n"
	  "gap = 6s\n" },
	{ "video-pinned",
	  "[scenario]\n"
	  "description = x86 PC: a codec streams while a database pins part of its memory for O_DIRECT and a writer dirties files\n"
	  "platform = x86\n"
	  "cmdline = cma=128M\n"
	  "swap = 256M\n"
	  "duration = 30s\n"
	  "seed = 1\n"
	  "snapshot = 15s\n"
	  "\n"
	  "[writer logs]\n"
	  "file = 256M\n"
	  "rate = 4000\n"
	  "dirty_expire = 5s\n"
	  "\n"
	  "[anon database]\n"
	  "rss = 900M\n"
	  "rate = 20000\n"
	  "\n"
	  "[pinner odirect]\n"
	  "target = database\n"
	  "share = 30\n"
	  "hold = 1s\n"
	  "period = 2s\n"
	  "\n"
	  "[device codec]\n"
	  "size = 8M\n"
	  "ring = 4\n"
	  "period = 40ms\n"
	  "deadline = 40ms\n"
	  "start = 5s\n"
	  "session = 2s\n"
	  "gap = 2s\n" },
	{ "mfc-decode",
	  "[scenario]\n"
	  "description = Exynos4210 (the CMA v23 s5p-mfc patch): the MFC decodes through its two 8 MiB areas while the page cache fills both banks\n"
	  "platform = s5p-mfc\n"
	  "cmdline = cma=16M\n"
	  "duration = 30s\n"
	  "seed = 1\n"
	  "snapshot = 20s\n"
	  "\n"
	  "[pagecache media]\n"
	  "file = 1G\n"
	  "rate = 6000\n"
	  "\n"
	  "[device s5p-mfc-r]\n"
	  "size = 2M\n"
	  "ring = 3\n"
	  "period = 33ms\n"
	  "deadline = 33ms\n"
	  "start = 5s\n"
	  "session = 3s\n"
	  "gap = 2s\n"
	  "\n"
	  "[device s5p-mfc-l]\n"
	  "size = 2M\n"
	  "ring = 3\n"
	  "period = 33ms\n"
	  "deadline = 33ms\n"
	  "start = 6s\n"
	  "session = 3s\n"
	  "gap = 2s\n" },
	{ "x86-4g",
	  "[scenario]\n"
	  "description = x86 with 4 GiB for ten minutes: page cache, processes, slab and a camera (the benchmark's run)\n"
	  "platform = x86\n"
	  "memory = 4G\n"
	  "cmdline = cma=256M\n"
	  "swap = 1G\n"
	  "duration = 10m\n"
	  "seed = 1\n"
	  "snapshot = 5m\n"
	  "\n"
	  "[pagecache files]\n"
	  "file = 8G\n"
	  "rate = 20000\n"
	  "\n"
	  "[anon processes]\n"
	  "rss = 1G\n"
	  "rate = 20000\n"
	  "lifetime = 2m\n"
	  "restart = 10s\n"
	  "\n"
	  "[slab kernel]\n"
	  "rate = 1000\n"
	  "orders = 0:80 1:10 2:5 3:5\n"
	  "lifetime = 30s\n"
	  "reclaimable = 30\n"
	  "max = 128M\n"
	  "\n"
	  "[device camera]\n"
	  "size = 3110400\n"
	  "ring = 4\n"
	  "period = 33ms\n"
	  "deadline = 33ms\n"
	  "start = 30s\n"
	  "session = 10s\n"
	  "gap = 20s\n" },
	/*
	 * GCMA's published setup (Park, Kim, Yeom, linux-mm RFC 2014-15), as
	 * the issue describes it: an ARM board of 800 MiB with a 256 MiB
	 * area, a kernel build's compilers coming and going, sources read and
	 * objects written through the page cache to slow storage (the arm
	 * profile's eMMC), and devices asking for 1 to 32000 pages in sessions.
	 */
	{ "gcma-board",
	  "[scenario]\n"
	  "description = GCMA's setup: ARM, 800 MiB, a 256 MiB area, compilers, page-cache reads and writes to slow storage, requests of 1 to 32000 pages\n"
	  "platform = arm\n"
	  "memory = 800M\n"
	  "cmdline = cma=256M\n"
	  "swap = 512M\n"
	  "duration = 120s\n"
	  "seed = 1\n"
	  "\n"
	  "[anon cc1-a]\n"
	  "rss = 96M\n"
	  "rate = 20000\n"
	  "lifetime = 4s\n"
	  "restart = 500ms\n"
	  "\n"
	  "[anon cc1-b]\n"
	  "rss = 96M\n"
	  "rate = 20000\n"
	  "lifetime = 5s\n"
	  "restart = 700ms\n"
	  "start = 1s\n"
	  "\n"
	  "[anon cc1-c]\n"
	  "rss = 96M\n"
	  "rate = 20000\n"
	  "lifetime = 3s\n"
	  "restart = 400ms\n"
	  "start = 2s\n"
	  "\n"
	  "[anon make]\n"
	  "rss = 64M\n"
	  "rate = 2000\n"
	  "\n"
	  "[pagecache sources]\n"
	  "file = 1G\n"
	  "rate = 4000\n"
	  "\n"
	  "[writer objects]\n"
	  "file = 384M\n"
	  "rate = 2000\n"
	  "dirty_expire = 5s\n"
	  "\n"
	  "[slab kernel]\n"
	  "rate = 200\n"
	  "orders = 0:80 1:10 2:10\n"
	  "lifetime = 10s\n"
	  "max = 32M\n"
	  "\n"
	  "[device dev-1]\n"
	  "size = 4K\n"
	  "period = 10ms\n"
	  "session = 500ms\n"
	  "gap = 1500ms\n"
	  "start = 5s\n"
	  "\n"
	  "[device dev-64]\n"
	  "size = 256K\n"
	  "period = 10ms\n"
	  "session = 500ms\n"
	  "gap = 2500ms\n"
	  "start = 5500ms\n"
	  "\n"
	  "[device dev-1024]\n"
	  "size = 4M\n"
	  "period = 10ms\n"
	  "session = 500ms\n"
	  "gap = 3500ms\n"
	  "start = 6s\n"
	  "\n"
	  "[device dev-8192]\n"
	  "size = 32M\n"
	  "period = 10ms\n"
	  "session = 1s\n"
	  "gap = 5s\n"
	  "start = 7s\n"
	  "\n"
	  "[device dev-32000]\n"
	  "size = 128000K\n"
	  "period = 10ms\n"
	  "session = 1s\n"
	  "gap = 7s\n"
	  "start = 8s\n" },
};

#define NR_BUILTINS (sizeof(builtins) / sizeof(builtins[0]))

const char *scenario_builtin_text(const char *name)
{
	for (size_t i = 0; i < NR_BUILTINS; i++)
		if (!strcmp(builtins[i].name, name))
			return builtins[i].text;
	return NULL;
}

int scenario_builtin(const char *name, struct scenario *sc)
{
	const char *text = scenario_builtin_text(name);
	char err[512];

	if (!text || scenario_parse(NULL, text, sc, err, sizeof(err)))
		return -1;
	snprintf(sc->name, sizeof(sc->name), "%s", name);
	return 0;
}

const char *scenario_builtin_names(void)
{
	return "camera-browser, video-pinned, mfc-decode, x86-4g";
}

void scenario_list(FILE *out)
{
	struct scenario sc;

	fprintf(out, "scenarios (--scenario NAME, or the path of a scenario file; 'cmasim show NAME' prints one):\n");
	for (size_t i = 0; i < NR_BUILTINS; i++) {
		if (scenario_builtin(builtins[i].name, &sc))
			continue;
		fprintf(out, "  %-15s %s%s\n", builtins[i].name, sc.description,
			strcmp(builtins[i].name, SCENARIO_DEFAULT) ? "" : " (the default)");
	}
}
