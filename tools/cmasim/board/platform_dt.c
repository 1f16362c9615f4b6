// SPDX-License-Identifier: GPL-2.0
/*
 * Platforms from device trees: a flattened tree (.dtb), or a source
 * (.dts) compiled with dtc first, read with libfdt (Debian's libfdt-dev)
 * as Linux 6.12's early FDT code reads it:
 *
 *   /memory nodes       the RAM banks (early_init_dt_scan_memory: every
 *                       root child with device_type "memory", its
 *                       linux,usable-memory or reg in the root's cells)
 *   /chosen/bootargs    the command line (early_init_dt_scan_chosen)
 *   root and /cpus      the architecture: 64-bit addresses and no ARMv7
 *                       core make arm64, else 32-bit ARM; the CPUs, one
 *                       per node of device_type "cpu"
 *   /reserved-memory    its children, kept for boot (of_reserved_mem.c):
 *                       reg (static) or size, alignment, alloc-ranges
 *                       (dynamic), no-map, reusable, shared-dma-pool,
 *                       linux,cma-default
 *   memory-region       each device node whose first memory-region is a
 *                       shared-dma-pool becomes a platform device using it
 *   /memreserve/        the header's reservations
 *
 * A tree describes no kernel: the board boots with kernel profile 6.12
 * (the one whose of_reserved_mem this follows) unless --kernel says
 * otherwise. Booting the regions is platform_dt_reserve, below.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <libfdt.h>

#include "util/escape.h"
#include "board/platform.h"

#define MiB (1ull << 20)
#define DT_MAX_BYTES (64u << 20)	/* the largest tree read; the kernel's own are < 1 MiB */
/*
 * 6.12's ARM lowmem with PAGE_OFFSET 0xc0000000: VMALLOC_END 0xff800000
 * less the 240 MiB vmalloc area and its 8 MiB guard, 768 MiB (v3.5's
 * VMALLOC_END 0xff000000 gives the built-in arm's 760 MiB)
 */
#define ARM_LOWMEM_SIZE (768 * MiB)
/*
 * QEMU's -kernel loader on the virt machine (hw/arm/boot.c): an arm64
 * Image whose text_offset falls within QEMU's boot code goes 2 MiB above
 * RAM's base. The size is image_size from the header of Debian's
 * 6.12.118 arm64 Image (43.25 MiB), the kernel bench/oracle boots; the
 * tree does not say which kernel is loaded.
 */
#define QEMU_IMAGE_OFFSET (2 * MiB)
#define QEMU_IMAGE_SIZE 0x2b40000ull

struct dt_reader {
	const void *fdt;
	const char *path;
	char *err;
	size_t errlen;
	unsigned addr_cells, size_cells;
};

static int dt_fail(struct dt_reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int dt_fail(struct dt_reader *r, const char *fmt, ...)
{
	int n = snprintf(r->err, r->errlen, "%s: ", r->path);
	char *msg;
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	va_end(ap);
	/* a tree's names and strings are in it: one line, whatever they hold */
	if (n >= 0 && (size_t)n < r->errlen)
		str_escape(msg ? msg : "out of memory", r->err + n, r->errlen - (size_t)n);
	free(msg);
	return -1;
}

/* ---- the file ---- */

/* The whole of @fd, or NULL with errno set (EFBIG: more than DT_MAX_BYTES). */
static char *read_all(int fd, size_t *len)
{
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap);

	while (buf) {
		ssize_t got;

		if (n == cap) {
			char *more = cap >= DT_MAX_BYTES ? NULL : realloc(buf, cap * 2);

			if (!more) {
				if (cap >= DT_MAX_BYTES)
					errno = EFBIG;
				free(buf);
				return NULL;
			}
			buf = more;
			cap *= 2;
		}
		got = read(fd, buf + n, cap - n);
		if (got < 0) {
			free(buf);
			return NULL;
		}
		if (!got)
			break;
		n += (size_t)got;
	}
	*len = n;
	return buf;
}

static bool has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

/* dtc -I dts -O dtb: the compiled tree, or NULL after saying why in @r. */
static char *compile_dts(struct dt_reader *r, const char *text, size_t *len)
{
	int pipefd[2], status;
	char *dtb;
	pid_t pid;

	if (strstr(text, "#include"))
		return dt_fail(r, "the source uses #include: run it through cpp first (cpp -nostdinc -I INCLUDE -undef -D__DTS__ -x assembler-with-cpp %s), then give the output or its dtc-compiled .dtb",
			       r->path), NULL;
	if (pipe(pipefd))
		return dt_fail(r, "cannot run dtc: %s", strerror(errno)), NULL;
	pid = fork();
	if (pid < 0) {
		close(pipefd[0]);
		close(pipefd[1]);
		return dt_fail(r, "cannot run dtc: %s", strerror(errno)), NULL;
	}
	if (!pid) {
		dup2(pipefd[1], 1);
		close(pipefd[0]);
		close(pipefd[1]);
		execlp("dtc", "dtc", "-q", "-I", "dts", "-O", "dtb", "-o", "-", r->path, (char *)NULL);
		_exit(127);
	}
	close(pipefd[1]);
	dtb = read_all(pipefd[0], len);
	close(pipefd[0]);
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status)) {
		free(dtb);
		if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
			return dt_fail(r, "dtc is not installed (Debian: apt-get install device-tree-compiler)"), NULL;
		return dt_fail(r, "dtc could not compile it (its messages are above)"), NULL;
	}
	if (!dtb)
		dt_fail(r, "out of memory reading dtc's output");
	return dtb;
}

/*
 * Debian's libfdt 1.6.1 fdt_next_tag moves past a property by its length
 * without checking its sign, so a length of -12 leaves the next tag where
 * this one is, and fdt_check_full walks it for ever. Each tag must end
 * past its start: 0, or 1 + the offset of the first that does not (a
 * walk that ends for another reason is fdt_check_full's to judge).
 */
static int tags_advance(const void *fdt, size_t len)
{
	int offset, next = 0;
	uint32_t tag;

	if (len < fdt_totalsize(fdt))
		return 0;
	do {
		offset = next;
		tag = fdt_next_tag(fdt, offset, &next);
		if (next >= 0 && next <= offset)
			return offset + 1;
	} while (tag != FDT_END && next >= 0);
	return 0;
}

/* The tree of @path, checked whole; NULL after saying why in @r. */
static void *load_tree(struct dt_reader *r)
{
	int fd = open(r->path, O_RDONLY);
	size_t len = 0;
	char *buf;
	int ret, err;

	if (fd < 0)
		return dt_fail(r, "cannot read the device tree: %s", strerror(errno)), NULL;
	buf = read_all(fd, &len);
	err = buf ? 0 : errno;	/* a directory: EISDIR */
	close(fd);
	if (err == EFBIG)
		return dt_fail(r, "cannot read the device tree: too large (at most %u MiB)", DT_MAX_BYTES >> 20), NULL;
	if (!buf)
		return dt_fail(r, "cannot read the device tree: %s", strerror(err)), NULL;
	if (has_suffix(r->path, ".dts")) {
		char *text = realloc(buf, len + 1);

		if (!text) {
			free(buf);
			return dt_fail(r, "out of memory"), NULL;
		}
		text[len] = 0;
		buf = compile_dts(r, text, &len);
		free(text);
		if (!buf)
			return NULL;
	}
	if (len < sizeof(struct fdt_header) || fdt_magic(buf) != FDT_MAGIC) {
		free(buf);
		return dt_fail(r, "not a flattened device tree: bad magic (a .dtb starts with d0 0d fe ed; give a .dtb, or a .dts to compile with dtc)"),
		       NULL;
	}
	/*
	 * dtc has written version 17 since 2008; an older tree names nodes by
	 * full path, and Debian's libfdt 1.6.1 fdt_check_full dereferences
	 * the NULL name such a tree can give.
	 */
	if (fdt_version(buf) < 16) {
		ret = (int)fdt_version(buf);
		free(buf);
		return dt_fail(r, "device tree version %d: accepted 16 and 17 (what dtc writes)", ret), NULL;
	}
	if ((ret = tags_advance(buf, len)) > 0) {
		free(buf);
		return dt_fail(r, "not a valid flattened device tree: the property at offset %d of the structure block has a length that does not move past it",
			       ret - 1),
		       NULL;
	}
	ret = fdt_check_full(buf, len);
	if (ret) {
		uint32_t total = fdt_totalsize(buf);

		free(buf);
		if (ret == -FDT_ERR_TRUNCATED || len < total)
			return dt_fail(r, "truncated: the header says %u bytes, the file has %zu", total, len),
			       NULL;
		return dt_fail(r, "not a valid flattened device tree: %s", fdt_strerror(ret)), NULL;
	}
	return buf;
}

/* ---- names ---- */

/*
 * The devicetree specification's characters (2.2.1, 2.2.4), as dtc's
 * node_name_chars, node_name_format and property_name_chars checks refuse
 * every other: a name is only ever these, so one read from a tree is
 * safe to print once it passed.
 */
#define DT_NAME_CHARS	"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789,._+-"
#define DT_NODE_CHARS	DT_NAME_CHARS "@"
#define DT_PROP_CHARS	DT_NAME_CHARS "*#?"

/* @node's path for a message (dt_fail escapes what it holds). */
static const char *node_path(struct dt_reader *r, int node, char *buf, int len)
{
	if (fdt_get_path(r->fdt, node, buf, len))
		snprintf(buf, (size_t)len, ".../%s", fdt_get_name(r->fdt, node, NULL));
	return buf;
}

static int check_node_names(struct dt_reader *r, int node)
{
	const char *name = fdt_get_name(r->fdt, node, NULL);
	size_t ok = strspn(name, DT_NODE_CHARS);
	const char *at = strchr(name, '@');
	char path[256];
	int prop;

	if (name[ok])
		return dt_fail(r, "node %s: '%c' is not allowed in a node name (the devicetree specification's characters, as dtc checks them: letters, digits and ,._+- with one @ before the unit address)",
			       node_path(r, node, path, sizeof(path)), name[ok]);
	if (at && strchr(at + 1, '@'))
		return dt_fail(r, "node %s: more than one '@' in its name: only one separates the unit address",
			       node_path(r, node, path, sizeof(path)));
	fdt_for_each_property_offset(prop, r->fdt, node) {
		const char *pname;

		if (!fdt_getprop_by_offset(r->fdt, prop, &pname, NULL))
			continue;
		ok = strspn(pname, DT_PROP_CHARS);
		if (pname[ok])
			return dt_fail(r, "node %s, property %s: '%c' is not allowed in a property name (the devicetree specification's characters, as dtc checks them: letters, digits and ,._+*#?-)",
				       node_path(r, node, path, sizeof(path)), pname, pname[ok]);
	}
	return 0;
}

/*
 * The first control character of @bootargs that does not separate its
 * parameters, or NULL. The library quotes a parameter it refuses: none
 * may carry an escape sequence there.
 */
static const char *bootargs_control(const char *bootargs)
{
	for (const char *s = bootargs; *s; s++)
		if (((unsigned char)*s < 0x20 && !strchr("\t\n\v\f\r", *s)) || *s == 0x7f)
			return s;
	return NULL;
}

/* Every node's and property's name, before any is read or printed. */
static int check_names(struct dt_reader *r)
{
	int node, depth = 0;

	for (node = fdt_next_node(r->fdt, -1, &depth); node >= 0; node = fdt_next_node(r->fdt, node, &depth))
		if (check_node_names(r, node))
			return -1;
	return 0;
}

/* ---- properties ---- */

/* A cell count of @node's parent rules: #address-cells or #size-cells of @node. */
static int read_cells(struct dt_reader *r, int node, const char *name, unsigned dflt, unsigned *out)
{
	int len;
	const fdt32_t *v = fdt_getprop(r->fdt, node, name, &len);

	if (!v) {
		*out = dflt;
		return 0;
	}
	if (len != 4)
		return dt_fail(r, "%s of %s is %d bytes long: expected one cell", name,
			       node ? fdt_get_name(r->fdt, node, NULL) : "the root", len);
	*out = fdt32_to_cpu(*v);
	if (*out < 1 || *out > 2)
		return dt_fail(r, "%s = %u in %s: accepted 1 or 2 (32- or 64-bit addresses and sizes)",
			       name, *out, node ? fdt_get_name(r->fdt, node, NULL) : "the root");
	return 0;
}

static uint64_t next_cells(const fdt32_t **p, unsigned cells)
{
	uint64_t v = 0;

	while (cells--)
		v = (v << 32) | fdt32_to_cpu(*(*p)++);
	return v;
}

/* of_fdt_device_is_available: no status, or "okay"/"ok". */
static bool node_available(const void *fdt, int node)
{
	const char *status = fdt_getprop(fdt, node, "status", NULL);

	return !status || !strcmp(status, "okay") || !strcmp(status, "ok");
}

static bool has_prop(const void *fdt, int node, const char *name)
{
	return fdt_getprop(fdt, node, name, NULL) != NULL;
}

/* ---- memory ---- */

static int bank_cmp(const void *a, const void *b)
{
	const struct cma_bank *x = a, *y = b;

	return x->base < y->base ? -1 : x->base > y->base;
}

static int read_memory(struct dt_reader *r, struct platform *p)
{
	unsigned t_len = 4 * (r->addr_cells + r->size_cells), n = 0;
	int node;

	fdt_for_each_subnode(node, r->fdt, 0) {
		const char *type = fdt_getprop(r->fdt, node, "device_type", NULL);
		const fdt32_t *reg;
		int len;

		if (!type || strcmp(type, "memory") || !node_available(r->fdt, node))
			continue;
		if (!p->memory_hint && strchr(fdt_get_name(r->fdt, node, NULL), '@'))
			p->memory_hint = strtoull(strchr(fdt_get_name(r->fdt, node, NULL), '@') + 1, NULL, 16);
		reg = fdt_getprop(r->fdt, node, "linux,usable-memory", &len);
		if (!reg || !len)
			reg = fdt_getprop(r->fdt, node, "reg", &len);
		if (!reg)
			continue;
		if (len % t_len)
			return dt_fail(r, "the reg of %s is %d bytes: not whole (address, size) pairs of %u + %u cells",
				       fdt_get_name(r->fdt, node, NULL), len, r->addr_cells, r->size_cells);
		for (; len >= (int)t_len; len -= (int)t_len) {
			uint64_t base = next_cells(&reg, r->addr_cells), size = next_cells(&reg, r->size_cells);

			if (!size)
				continue;
			if (base + size < base)
				return dt_fail(r, "memory bank 0x%llx + 0x%llx in %s wraps around",
					       (unsigned long long)base, (unsigned long long)size,
					       fdt_get_name(r->fdt, node, NULL));
			if (n == PLATFORM_MAX_BANKS)
				return dt_fail(r, "more than %d memory banks", PLATFORM_MAX_BANKS);
			p->banks[n++] = (struct cma_bank){ base, size };
		}
	}
	qsort(p->banks, n, sizeof(p->banks[0]), bank_cmp);
	/* memblock merges what touches or overlaps: so do we */
	p->nr_banks = 0;
	for (unsigned i = 0; i < n; i++) {
		struct cma_bank *last = p->nr_banks ? &p->banks[p->nr_banks - 1] : NULL;

		if (last && p->banks[i].base <= last->base + last->size) {
			uint64_t end = p->banks[i].base + p->banks[i].size;

			if (end > last->base + last->size)
				last->size = end - last->base;
			continue;
		}
		p->banks[p->nr_banks++] = p->banks[i];
	}
	return 0;
}

/* ---- architecture ---- */

/* A 32-bit core: an ARMv7 (or older) compatible in /cpus. */
static bool has_armv7_cpu(const void *fdt)
{
	static const char *const v7[] = {
		"arm,cortex-a5", "arm,cortex-a7", "arm,cortex-a8", "arm,cortex-a9", "arm,cortex-a12",
		"arm,cortex-a15", "arm,cortex-a17", "qcom,krait", "qcom,scorpion", "marvell,pj4",
		"arm,arm11", "arm,arm9", "arm,arm926", "marvell,sheeva", "brcm,brahma-b15",
	};
	int cpus = fdt_path_offset(fdt, "/cpus"), cpu;

	if (cpus < 0)
		return false;
	fdt_for_each_subnode(cpu, fdt, cpus) {
		for (size_t i = 0; i < sizeof(v7) / sizeof(v7[0]); i++) {
			const char *c;
			int len;

			for (c = fdt_getprop(fdt, cpu, "compatible", &len); c && len > 0;
			     len -= (int)strlen(c) + 1, c += strlen(c) + 1)
				if (!strncmp(c, v7[i], strlen(v7[i])) &&
				    (!c[strlen(v7[i])] || c[strlen(v7[i])] == 'r'))
					return true;
		}
	}
	return false;
}

/*
 * The CPUs the kernel brings up: /cpus' nodes of device_type "cpu"
 * (arm64's of_parse_and_init_cpus, arm's arm_dt_init_cpu_maps), the
 * boot CPU alone without any; at most the 256 slots a machine has.
 */
static unsigned dt_nr_cpus(const void *fdt)
{
	int cpus = fdt_path_offset(fdt, "/cpus"), cpu;
	unsigned n = 0;

	if (cpus >= 0)
		fdt_for_each_subnode(cpu, fdt, cpus) {
			const char *type = fdt_getprop(fdt, cpu, "device_type", NULL);

			if (type && !strcmp(type, "cpu") && n < 256)
				n++;
		}
	return n ? n : 1;
}

/*
 * Geometry as the kernels have it: arm64 (pageblock order 9, ZONE_DMA
 * below 4 GiB, Debian's CONFIG_CMA_SIZE_MBYTES=32 and THP "always") as
 * the built-in arm64; 32-bit
 * ARM as the built-in arm but for 6.12's lowmem, 768 MiB from the first
 * bank, HighMem the rest.
 */
static void set_arch(struct dt_reader *r, struct platform *p)
{
	p->cfg.kernel = "6.12";
	p->cfg.nr_cpus = dt_nr_cpus(r->fdt);
	p->cfg.metadata_only = true;	/* a boot never looks at the bytes */
	if (r->addr_cells == 2 && !has_armv7_cpu(r->fdt)) {
		p->cfg.arch = CMA_ARCH_ARM64;
		p->cfg.pageblock_order = 9;
		snprintf(p->kconfig, sizeof(p->kconfig), "%s", ARM64_DEBIAN_KCONFIG);
		return;
	}
	p->cfg.arch = CMA_ARCH_ARM;
	p->cfg.pageblock_order = 10;
}

/* After the banks (--memory may give them late): highmem on ARM past lowmem. */
void platform_dt_set_banks(struct platform *p)
{
	uint64_t ram = 0;

	/* QEMU's loader: the Image at RAM's base plus 2 MiB (its text_offset, 0, is within its boot code) */
	if (p->kernel.size && p->nr_banks)
		p->kernel.base = p->banks[0].base + QEMU_IMAGE_OFFSET;
	if (p->cfg.arch != CMA_ARCH_ARM || !p->nr_banks)
		return;
	for (unsigned i = 0; i < p->nr_banks; i++)
		ram += p->banks[i].size;
	p->cfg.highmem_start = ram > ARM_LOWMEM_SIZE ? p->banks[0].base + ARM_LOWMEM_SIZE : 0;
}

/* ---- reserved memory ---- */

static int read_range_prop(struct dt_reader *r, int node, const char *prop, unsigned cells,
			   uint64_t *out)
{
	int len;
	const fdt32_t *v = fdt_getprop(r->fdt, node, prop, &len);

	if (!v)
		return 0;
	if (len != (int)(4 * cells))
		return dt_fail(r, "%s of /reserved-memory/%s is %d bytes: expected %u cells", prop,
			       fdt_get_name(r->fdt, node, NULL), len, cells);
	*out = next_cells(&v, cells);
	return 1;
}

static int read_rmem_node(struct dt_reader *r, struct platform *p, int node)
{
	struct platform_rmem *m;
	const char *name = fdt_get_name(r->fdt, node, NULL);
	unsigned t_len = 4 * (r->addr_cells + r->size_cells);
	const fdt32_t *reg, *ranges;
	int len;

	if (p->nr_rmem == PLATFORM_MAX_RMEM)
		return dt_fail(r, "more than %d /reserved-memory nodes", PLATFORM_MAX_RMEM);
	/* a region is known by its node's name (the devices' memory-region, the boot log) */
	if (!name || !*name)
		return dt_fail(r, "a /reserved-memory node has no name: a region is known by it");
	m = &p->rmem[p->nr_rmem];
	memset(m, 0, sizeof(*m));
	snprintf(m->name, sizeof(m->name), "%s", name);
	m->nomap = has_prop(r->fdt, node, "no-map");
	m->reusable = has_prop(r->fdt, node, "reusable");
	m->pool = !fdt_node_check_compatible(r->fdt, node, "shared-dma-pool");
	m->cma_default = has_prop(r->fdt, node, "linux,cma-default");
	reg = fdt_getprop(r->fdt, node, "reg", &len);
	if (reg) {
		if (len % t_len)
			return dt_fail(r, "the reg of /reserved-memory/%s is %d bytes: not whole (address, size) pairs of %u + %u cells",
				       name, len, r->addr_cells, r->size_cells);
		if (!len)
			return 0;
		m->base = next_cells(&reg, r->addr_cells);
		m->size = next_cells(&reg, r->size_cells);
		if (!m->size)
			return 0;
		if (m->base + m->size < m->base)
			return dt_fail(r, "/reserved-memory/%s: 0x%llx + 0x%llx wraps around", name,
				       (unsigned long long)m->base, (unsigned long long)m->size);
		p->nr_rmem++;
		return 0;
	}
	if (read_range_prop(r, node, "size", r->size_cells, &m->dyn_size) <= 0)
		return r->err[0] ? -1 : 0;	/* neither reg nor size: the kernel skips it */
	if (read_range_prop(r, node, "alignment", r->addr_cells, &m->align) < 0)
		return -1;
	if (m->align & (m->align - 1))
		return dt_fail(r, "/reserved-memory/%s: alignment 0x%llx is not a power of two", name,
			       (unsigned long long)m->align);
	ranges = fdt_getprop(r->fdt, node, "alloc-ranges", &len);
	if (ranges) {
		if (len % t_len)
			return dt_fail(r, "the alloc-ranges of /reserved-memory/%s is %d bytes: not whole (address, size) pairs",
				       name, len);
		for (; len >= (int)t_len && m->nr_ranges < PLATFORM_MAX_RANGES; len -= (int)t_len) {
			struct cma_bank *b = &m->ranges[m->nr_ranges++];

			b->base = next_cells(&ranges, r->addr_cells);
			b->size = next_cells(&ranges, r->size_cells);
		}
	}
	if (m->dyn_size)
		p->nr_rmem++;
	return 0;
}

static int rmem_cmp(const void *a, const void *b)
{
	const struct platform_rmem *x = *(struct platform_rmem *const *)a, *y = *(struct platform_rmem *const *)b;

	return x->base < y->base ? -1 : x->base > y->base;
}

/* __rmem_check_for_overlap: the kernel says "OVERLAP DETECTED!" and boots on; we refuse. */
static int check_overlaps(struct dt_reader *r, struct platform *p)
{
	const struct platform_rmem *sorted[PLATFORM_MAX_RMEM];
	unsigned n = 0;

	for (unsigned i = 0; i < p->nr_rmem; i++)
		if (p->rmem[i].size)
			sorted[n++] = &p->rmem[i];
	qsort(sorted, n, sizeof(sorted[0]), rmem_cmp);
	for (unsigned i = 0; i + 1 < n; i++)
		if (sorted[i]->base + sorted[i]->size > sorted[i + 1]->base)
			return dt_fail(r, "/reserved-memory/%s (0x%llx..0x%llx) overlaps /reserved-memory/%s (0x%llx..0x%llx): static regions must not overlap",
				       sorted[i]->name, (unsigned long long)sorted[i]->base,
				       (unsigned long long)(sorted[i]->base + sorted[i]->size - 1),
				       sorted[i + 1]->name, (unsigned long long)sorted[i + 1]->base,
				       (unsigned long long)(sorted[i + 1]->base + sorted[i + 1]->size - 1));
	return 0;
}

static int read_reserved(struct dt_reader *r, struct platform *p)
{
	int node = fdt_path_offset(r->fdt, "/reserved-memory"), child;
	unsigned ac, sc;

	if (node < 0)
		return 0;
	/* __reserved_mem_check_root: the kernel ignores the node otherwise; we say so */
	if (read_cells(r, node, "#address-cells", 0, &ac) || read_cells(r, node, "#size-cells", 0, &sc))
		return -1;
	if (ac != r->addr_cells || sc != r->size_cells || !has_prop(r->fdt, node, "ranges"))
		return dt_fail(r, "/reserved-memory has #address-cells %u, #size-cells %u%s: the kernel ignores such a node (\"unsupported node format\"); give the root's cells (%u, %u) and an empty ranges",
			       ac, sc, has_prop(r->fdt, node, "ranges") ? "" : " and no ranges",
			       r->addr_cells, r->size_cells);
	p->has_reserved_memory = true;
	fdt_for_each_subnode(child, r->fdt, node)
		if (node_available(r->fdt, child) && read_rmem_node(r, p, child))
			return -1;
	return check_overlaps(r, p);
}

/* ---- devices ---- */

static int rmem_index(const struct platform *p, const char *name)
{
	for (unsigned i = 0; i < p->nr_rmem; i++)
		if (!strcmp(p->rmem[i].name, name))
			return (int)i;
	return -1;
}

/* of_device_make_bus_id's name: "UNIT.NAME" for "NAME@UNIT", else the node's name. */
static void device_name(const char *node, char *out, size_t len)
{
	const char *at = strchr(node, '@');

	if (at)
		snprintf(out, len, "%s.%.*s", at + 1, (int)(at - node), node);
	else
		snprintf(out, len, "%s", node);
}

static int read_devices(struct dt_reader *r, struct platform *p)
{
	int rmem_node = fdt_path_offset(r->fdt, "/reserved-memory");
	int node, depth = 0;

	for (node = fdt_next_node(r->fdt, -1, &depth); node >= 0; node = fdt_next_node(r->fdt, node, &depth)) {
		const fdt32_t *phandles;
		struct platform_device *d;
		int len, target, idx;

		phandles = fdt_getprop(r->fdt, node, "memory-region", &len);
		if (!phandles || !node_available(r->fdt, node))
			continue;
		if (len < 4)
			return dt_fail(r, "%s: memory-region is empty", fdt_get_name(r->fdt, node, NULL));
		for (int i = 0; i < len / 4; i++)
			if (fdt_node_offset_by_phandle(r->fdt, fdt32_to_cpu(phandles[i])) < 0)
				return dt_fail(r, "%s: memory-region's phandle %u points nowhere: no node has it",
					       fdt_get_name(r->fdt, node, NULL), fdt32_to_cpu(phandles[i]));
		/* of_reserved_mem_device_init: the first region, if it is a pool */
		target = fdt_node_offset_by_phandle(r->fdt, fdt32_to_cpu(phandles[0]));
		if (rmem_node < 0 || fdt_parent_offset(r->fdt, target) != rmem_node)
			continue;
		idx = rmem_index(p, fdt_get_name(r->fdt, target, NULL));
		if (idx < 0 || !p->rmem[idx].pool)
			continue;
		if (p->nr_devices == PLATFORM_MAX_DEVICES)
			return dt_fail(r, "more than %d devices with a shared-dma-pool memory-region", PLATFORM_MAX_DEVICES);
		d = &p->devices[p->nr_devices++];
		device_name(fdt_get_name(r->fdt, node, NULL), d->name, sizeof(d->name));
		/* of_dma_configure's default coherent mask */
		d->mask = 0xffffffffull;
		memcpy(d->region, p->rmem[idx].name, sizeof(d->region));
	}
	return 0;
}

/* ---- /chosen ---- */

/* A linux,initrd-* address: one cell or two, as early_init_dt_check_for_initrd reads it. */
static int read_initrd_prop(struct dt_reader *r, int chosen, const char *prop, uint64_t *out)
{
	int len;
	const fdt32_t *v = fdt_getprop(r->fdt, chosen, prop, &len);

	if (!v)
		return 1;
	if (len != 4 && len != 8)
		return dt_fail(r, "/chosen/%s is %d bytes: expected one cell or two (4 or 8 bytes)", prop, len);
	*out = len == 4 ? fdt32_to_cpu(v[0]) : ((uint64_t)fdt32_to_cpu(v[0]) << 32) | fdt32_to_cpu(v[1]);
	return 0;
}

/* The initrd the loader put in memory, which the kernel keeps out of the allocator until it is unpacked. */
static int read_initrd(struct dt_reader *r, struct platform *p, int chosen)
{
	uint64_t start, end;
	int ret = read_initrd_prop(r, chosen, "linux,initrd-start", &start);

	if (ret)
		return ret < 0 ? ret : 0;
	ret = read_initrd_prop(r, chosen, "linux,initrd-end", &end);
	if (ret)
		return ret < 0 ? ret : 0;
	/* early_init_dt_check_for_initrd ignores an end below the start */
	if (end > start)
		p->initrd = (struct cma_bank){ start, end - start };
	return 0;
}

/* ---- the whole ---- */

static int read_tree(struct dt_reader *r, struct platform *p)
{
	const char *model, *bootargs, *compat;
	int chosen;

	if (check_names(r) || read_cells(r, 0, "#address-cells", 2, &r->addr_cells) ||
	    read_cells(r, 0, "#size-cells", 1, &r->size_cells))
		return -1;
	model = fdt_getprop(r->fdt, 0, "model", NULL);
	compat = fdt_getprop(r->fdt, 0, "compatible", NULL);
	set_arch(r, p);
	snprintf(p->description, sizeof(p->description), "%s (%s, %s) from %s",
		 model ? ESCAPED(model) : "device tree", compat ? ESCAPED(compat) : "no compatible", p->cfg.arch == CMA_ARCH_ARM64 ? "arm64" : "arm",
		 r->path);
	chosen = fdt_path_offset(r->fdt, "/chosen");
	bootargs = chosen >= 0 ? fdt_getprop(r->fdt, chosen, "bootargs", NULL) : NULL;
	if (bootargs && bootargs_control(bootargs))
		return dt_fail(r, "/chosen/bootargs: control character '%c' in \"%s\": a command line is text (spaces, tabs and newlines separate its parameters)",
			       *bootargs_control(bootargs), bootargs);
	if (bootargs)
		snprintf(p->cmdline, sizeof(p->cmdline), "%s", bootargs);
	p->phys_wide = p->cfg.arch == CMA_ARCH_ARM64 || r->addr_cells == 2;
	if ((chosen >= 0 && read_initrd(r, p, chosen)) || read_memory(r, p) || read_reserved(r, p) ||
	    read_devices(r, p))
		return -1;
	/* QEMU's virt machine (its -machine dumpdtb): the kernel is where its loader puts it */
	if (p->cfg.arch == CMA_ARCH_ARM64 && compat && !strcmp(compat, "linux,dummy-virt"))
		p->kernel.size = QEMU_IMAGE_SIZE;
	for (int i = 0; i < fdt_num_mem_rsv(r->fdt) && p->nr_memreserve < PLATFORM_MAX_BANKS; i++) {
		uint64_t base, size;

		if (!fdt_get_mem_rsv(r->fdt, i, &base, &size) && size)
			p->memreserve[p->nr_memreserve++] = (struct cma_bank){ base, size };
	}
	/* a memory node without a size: where --memory SIZE and memory = put the bank */
	if (!p->nr_banks)
		p->banks[0].base = p->memory_hint;
	platform_dt_set_banks(p);
	return 0;
}

bool platform_is_dt(const char *path)
{
	return has_suffix(path, ".dtb") || has_suffix(path, ".dts");
}

int platform_read_dt(const char *path, struct platform *p, char *err, size_t errlen)
{
	struct dt_reader r = { .path = path, .err = err, .errlen = errlen };
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	void *fdt;
	int ret;

	err[0] = 0;
	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", base);
	snprintf(p->source, sizeof(p->source), "%s", path);
	fdt = load_tree(&r);
	if (!fdt)
		return -1;
	r.fdt = fdt;
	p->reserve = board_reserve_dt;
	ret = read_tree(&r, p);
	free(fdt);
	return ret;
}
