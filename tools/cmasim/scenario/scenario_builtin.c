// SPDX-License-Identifier: GPL-2.0
/*
 * The built-in scenarios, as scenario-file text read by the same parser
 * (cmasim show NAME prints one, a start for a file of one's own).
 *
 * The camera's buffers are 1080p NV12 frames (1920 x 1080 x 1.5 =
 * 3110400 bytes); a frame period of 33 ms is 30 frames per second, and a
 * buffer must be ready before the next frame is due.
 *
 * camera-browser is a phone in use: its memory fills with page cache. The
 * browser's cache reads 4 KiB pages at random, which the eMMC serves at
 * 2000 IOPS (about 8 MB/s): alone, in a minute, it never fills the board,
 * nothing is reclaimed and any policy serves the camera. Beside it a media
 * scanner (the gallery indexing photos and videos) reads 1 GiB in
 * readahead windows, sharing the eMMC with the browser (it gets about
 * 12.5 MB/s): memory is full from about 43 s on, and the camera's last
 * sessions meet reclaim. Both ask more than the eMMC gives (rate
 * 8000): the storage sets their pace.
 */
#include <errno.h>
#include <string.h>

#include "scenario/scenario.h"

struct builtin {
	const char *name;
	const char *text;
};

static const struct builtin builtins[] = {
	{ "camera-browser",
	  "[scenario]\n"
	  "description = ARM phone: a camera streams in sessions while a browser and a media scanner fill the page cache on one eMMC and the browser holds anonymous memory\n"
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
	  "[pagecache media]\n"
	  "file = 1G\n"
	  "rate = 8000\n"
	  "pattern = sequential\n"
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
	 * GCMA's published evaluation (SeongJae Park, "[RFC v2 0/5] introduce
	 * gcma", linux-mm, 2015-02-24): a CuBox i4 Pro (ARMv7, 4 cores at
	 * 1 GHz, 800 MiB of its 2 GiB, a class 10 microSD card), Linux v3.17
	 * with 128 MiB of swap and a 256 MiB area; in the background
	 * "make defconfig && make -j 16" of Linux v3.12.6 (1675 s user +
	 * 168 s system, 508 s elapsed at 362% CPU without requests); in the
	 * foreground 32 requests each of 1 to 32000 pages (1, 512, 1024, 2048,
	 * 4096, 8192, 16384, 32000). From the published setup: the kernel
	 * (the 3.17 profile), memory, area, swap, procs and cpu of the job,
	 * the sizes and the 32 requests.
	 * Assumptions, not published, with their reasons:
	 * - platform arm: the built-in ARMv7 board (its 1.2 GHz, not the
	 *   CuBox's 1 GHz), with the CuBox's 4 CPUs (cpus = 4);
	 * - the job: ~1500 compiler runs (the C files of an ARM defconfig
	 *   build, roughly), a cc1 of 20 MiB (16 of them must fit in the
	 *   544 MiB GCMA leaves: the published build ran to its end under
	 *   gcma, 515 s against 508 s) touching 20000 pages a CPU second (the
	 *   previous scenario's figure), reading 2 MiB of headers and sources
	 *   each from a 560 MiB tree (v3.12's unpacked size, roughly), and
	 *   once its memory is in, walking 36% of it (hot = 36: what gcc 12's
	 *   cc1 touched again in the second half of 16 compiles of 6.12
	 *   objects, the median; bench/kernel/cc-wss.py);
	 * - the storage: the arm profile's calibrated eMMC stands for the
	 *   microSD card (no microSD profile; a class 10 card is slower, so
	 *   the refaults and writebacks here are if anything cheap);
	 * - the objects written: ~300 MiB over the build, as a writer of 150
	 *   pages a second on a file of that size, one file a compiler run
	 *   (files = 1500), on ext4 with a journal (the CuBox's root file
	 *   system is not published): its 143 metadata pages (journal) are
	 *   the oracle's 1.08 a directory written in (bench/oracle/README.md,
	 *   "A build writer": 1,619 for 1,500) times the 133 directories of
	 *   1500 objects at the 11.3 objects a directory of 6.12's
	 *   imx_v6_v7_defconfig build (3,401 in 300; multi_v7 11.0;
	 *   bench/kernel/build-dirs.sh), held as kernel 3.x's journal holds
	 *   them (until its commit, doc/cmasim.1);
	 * - the kernel's preemption model: CONFIG_PREEMPT_VOLUNTARY, the
	 *   choice of imx_v6_v7_defconfig, the i.MX6's defconfig (there in
	 *   v3.6 and still in 6.12; the authors' .config is not published);
	 * - the requests' call, from the authors' module (mm/eval_cma.c of
	 *   github.com/sjp38/linux.gcma, measure_cma()): it times
	 *   cma_alloc(cma, nr_pages, 1) itself, no dma_alloc_coherent, so
	 *   nothing is cleared and the alignment is order 1 (align = 8K: a
	 *   driver asking CMA itself);
	 * - the requests: each held 100 ms (the module releases each at once
	 *   and sleeps a set time before the next), one size after another
	 *   2.5 s apart, so that one request has ended before the next starts
	 *   (the module issued them in turn), each size every 14 s: 31 to 33
	 *   of each (the published 32) by 460 s, where the run ends, inside
	 *   the build (it takes about 461 s here, 508 s published); serial =
	 *   yes, as one thread issues them: a request that came due while the
	 *   one before was in flight would start when that one ended.
	 */
	{ "gcma-board",
	  "[scenario]\n"
	  "description = GCMA's published setup (RFC v2, 2015): 4-CPU ARM, 800 MiB, 256 MiB area, 128 MiB swap, make -j 16 in the background, about 32 requests each of 1 to 32000 pages\n"
	  "platform = arm\n"
	  "memory = 800M\n"
	  "cpus = 4\n"
	  "kernel = 3.17\n"
	  "cmdline = cma=256M\n"
	  "kconfig = CONFIG_PREEMPT_VOLUNTARY=y\n"
	  "swap = 128M\n"
	  "duration = 460s\n"
	  "seed = 1\n"
	  "\n"
	  "[job kbuild]\n"
	  "procs = 16\n"
	  "cpu = 1843s\n"
	  "units = 1500\n"
	  "spread = 50\n"
	  "rss = 20M\n"
	  "rate = 20000\n"
	  "hot = 36\n"
	  "source = 560M\n"
	  "reads = 2M\n"
	  "\n"
	  "[writer objects]\n"
	  "file = 300M\n"
	  "rate = 150\n"
	  "dirty_expire = 30s\n"
	  "journal = 143\n"
	  "files = 1500\n"
	  "\n"
	  "[device dev-1]\n"
	  "size = 4K\n"
	  "align = 8K\n"
	  "serial = yes\n"
	  "period = 100ms\n"
	  "session = 100ms\n"
	  "gap = 13900ms\n"
	  "start = 10s\n"
	  "\n"
	  "[device dev-512]\n"
	  "size = 2048K\n"
	  "align = 8K\n"
	  "serial = yes\n"
	  "period = 100ms\n"
	  "session = 100ms\n"
	  "gap = 13900ms\n"
	  "start = 12500ms\n"
	  "\n"
	  "[device dev-1024]\n"
	  "size = 4096K\n"
	  "align = 8K\n"
	  "serial = yes\n"
	  "period = 100ms\n"
	  "session = 100ms\n"
	  "gap = 13900ms\n"
	  "start = 15s\n"
	  "\n"
	  "[device dev-2048]\n"
	  "size = 8192K\n"
	  "align = 8K\n"
	  "serial = yes\n"
	  "period = 100ms\n"
	  "session = 100ms\n"
	  "gap = 13900ms\n"
	  "start = 17500ms\n"
	  "\n"
	  "[device dev-4096]\n"
	  "size = 16384K\n"
	  "align = 8K\n"
	  "serial = yes\n"
	  "period = 100ms\n"
	  "session = 100ms\n"
	  "gap = 13900ms\n"
	  "start = 20s\n"
	  "\n"
	  "[device dev-8192]\n"
	  "size = 32768K\n"
	  "align = 8K\n"
	  "serial = yes\n"
	  "period = 100ms\n"
	  "session = 100ms\n"
	  "gap = 13900ms\n"
	  "start = 22500ms\n"
	  "\n"
	  "[device dev-16384]\n"
	  "size = 65536K\n"
	  "align = 8K\n"
	  "serial = yes\n"
	  "period = 100ms\n"
	  "session = 100ms\n"
	  "gap = 13900ms\n"
	  "start = 25s\n"
	  "\n"
	  "[device dev-32000]\n"
	  "size = 128000K\n"
	  "align = 8K\n"
	  "serial = yes\n"
	  "period = 100ms\n"
	  "session = 100ms\n"
	  "gap = 13900ms\n"
	  "start = 27500ms\n" },
};

#define NR_BUILTINS (sizeof(builtins) / sizeof(builtins[0]))

const char *scenario_builtin_text(const char *name)
{
	for (size_t i = 0; i < NR_BUILTINS; i++)
		if (!strcmp(builtins[i].name, name))
			return builtins[i].text;
	return NULL;
}

int scenario_builtin(const char *name, struct scenario *sc, char *err, size_t errlen)
{
	const char *text = scenario_builtin_text(name);

	if (!text) {
		snprintf(err, errlen, "no such built-in scenario");
		return -ENOENT;
	}
	if (scenario_parse(NULL, text, sc, err, errlen))
		return -EINVAL;
	snprintf(sc->name, sizeof(sc->name), "%s", name);
	return 0;
}

const char *scenario_builtin_names(void)
{
	static char names[NR_BUILTINS * (SIM_NAME_MAX + 2)];
	size_t n = 0;

	if (names[0])
		return names;
	for (size_t i = 0; i < NR_BUILTINS; i++)
		n += (size_t)snprintf(names + n, sizeof(names) - n, "%s%s", i ? ", " : "", builtins[i].name);
	return names;
}

int scenario_list(FILE *out)
{
	struct scenario sc;
	char err[SCENARIO_ERR_MAX];
	int ret = 0;

	fprintf(out, "scenarios (--scenario NAME, or the path of a scenario file; 'cmasim show NAME' prints one):\n");
	for (size_t i = 0; i < NR_BUILTINS; i++) {
		if (scenario_builtin(builtins[i].name, &sc, err, sizeof(err))) {
			fprintf(stderr, "cmasim: built-in scenario %s: %s\n", builtins[i].name, err);
			ret = -EIO;
			continue;
		}
		fprintf(out, "  %-15s %s%s\n", builtins[i].name, sc.description,
			strcmp(builtins[i].name, SCENARIO_DEFAULT) ? "" : " (the default)");
	}
	return ret;
}
